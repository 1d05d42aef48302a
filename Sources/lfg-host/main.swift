// `lfg-host`: the resident per-machine agent, started by `lfg host` (which resolves the configuration the
// hooks use and execs this). No Foundation: it stays a few MB resident and sleeps in one poll when idle.
// Arguments: --home DIR --url URL --host NAME --lfg PATH; the token comes in LFG_AUTH_TOKEN.
import FleetCore
import HookIntake
import HostAgent
import HostAgentPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line on stderr (the journal, or launchd's log file).
func writeError(_ text: String) {
    var bytes = Array(text.utf8)
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if written < 0 { if errno == EINTR { continue } else { return } }
        bytes.removeFirst(written)
    }
}

func fail(_ message: String) -> Never {
    writeError("lfg host: \(message)\n")
    exit(1)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard name.hasPrefix("--"), let value = arguments.popFirst() else { fail("usage: lfg-host --home DIR --url URL --host NAME --lfg PATH") }
    options[String(name.dropFirst(2))] = value
}
guard let home = options["home"], let url = options["url"], let host = options["host"], let lfg = options["lfg"] else {
    fail("usage: lfg-host --home DIR --url URL --host NAME --lfg PATH (run it through `lfg host`)")
}
var policy = HostAgentPolicy.standard
if let text = options["interval"] {
    guard let seconds = Double(text), seconds >= 1 else { fail("--interval takes seconds (at least 1), not '\(text)'") }
    policy = HostAgentPolicy(heartbeatInterval: seconds, retryInterval: min(5, seconds))
}
let token = getenv("LFG_AUTH_TOKEN").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
guard let heartbeat = CurlHeartbeat(baseURL: url, host: HostID(host), token: token) else { fail("libcurl could not start") }

let listener: HostDoorbell.Listener
do { listener = try HostDoorbell.Listener(home: home) } catch { fail("\(error)") }

// SIGTERM / SIGINT end the loop at its next wake; the poll returns at once (EINTR).
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
signal(SIGTERM) { _ in stopRequested = 1 }
signal(SIGINT) { _ in stopRequested = 1 }
signal(SIGPIPE, SIG_IGN)

func log(_ line: String) {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    writeError("lfg host [\(time.tv_sec)] \(line)\n")
}
/// The hooks' files through the hooks' own types (HookIntake): one definition of every format.
let hooks = HostRunner.HookFiles(
    doorbellDescriptor: listener.fileDescriptor,
    takeRings: { _ = listener.receiveKeys() },
    agentRecords: { AgentProcessRecord.readAll(home: home) },
    startTime: { AgentProcess.lookup($0)?.startTime },
    recordSessionEnd: { key, process in
        // Exactly what a hook records for its agent's own SessionEnd: the next drain archives the session.
        let nanoseconds = InboxEntry.wallNanoseconds()
        let event = HookEvent(name: .sessionEnd, sessionID: process.sid)
        let record = RecordedEvent(event: event, host: process.host, recordedAt: UnixTime(nanoseconds / 1_000_000) / 1000)
        do {
            try InboxEntry.record(Array(record.encoded().utf8), root: InboxEntry.root(home: home), key: key, wallNanoseconds: nanoseconds)
            try AgentProcessRecord.remove(home: home, key: key)
            return nil
        } catch {
            return "\(error)"
        }
    })
log("heartbeats to \(url) as host '\(host)' every \(Int(policy.heartbeatInterval)) s (TTL \(Int(policy.ttlSeconds)) s); doorbell \(listener.path)")
let runner = HostRunner(settings: .init(home: home, lfgExecutable: lfg, policy: policy), heartbeat: heartbeat, hooks: hooks, log: log)
runner.run { stopRequested != 0 }
log("stopped")
