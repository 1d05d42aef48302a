internal import CHostShims
import FleetCore
import HookIntake
import HostAgent

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The resident process's whole `main`, shared by `lfg-host` (plain HTTP) and `lfg-host-tls` (libcurl),
/// which differ only in the heartbeat they link. `lfg host` resolves the configuration and execs one.
/// Arguments: --home DIR --url URL --host NAME --lfg PATH [--interval S]; the token comes in LFG_AUTH_TOKEN.
public enum HostMain {
    /// Makes the heartbeat for this server, or says why this binary cannot reach it.
    public typealias HeartbeatFactory = (ServerAddress, HostID, _ token: String?) -> Result<any HeartbeatSender, HostStartError>

    /// Parses the arguments, runs the agent until SIGTERM / SIGINT, and exits (1 with one line on stderr
    /// when it cannot start).
    public static func run(program: String, makeHeartbeat: HeartbeatFactory) -> Never {
        let usage = "usage: \(program) --home DIR --url URL --host NAME --lfg PATH [--interval SECONDS] (run it through `lfg host`)"
        var options: [String: String] = [:]
        var arguments = CommandLine.arguments.dropFirst()
        while let name = arguments.popFirst() {
            guard name.hasPrefix("--"), let value = arguments.popFirst() else { fail(usage) }
            options[String(name.dropFirst(2))] = value
        }
        guard let home = options["home"], let url = options["url"], let host = options["host"], let lfg = options["lfg"] else { fail(usage) }
        var policy = HostAgentPolicy.standard
        if let text = options["interval"] {
            guard let seconds = Double(text), seconds >= 1 else { fail("--interval takes seconds (at least 1), not '\(text)'") }
            policy = HostAgentPolicy(heartbeatInterval: seconds, retryInterval: min(5, seconds))
        }
        let address: ServerAddress
        do { address = try ServerAddress(parsing: url) } catch { fail("\(error)") }
        let token = getenv("LFG_AUTH_TOKEN").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let heartbeat: any HeartbeatSender
        switch makeHeartbeat(address, HostID(host), token) {
        case .success(let sender): heartbeat = sender
        case .failure(let error): fail(error.description)
        }
        let listener: HostDoorbell.Listener
        do { listener = try HostDoorbell.Listener(home: home) } catch { fail("\(error)") }

        // SIGTERM / SIGINT end the loop at its next wake; the poll returns at once (EINTR). The flag lives in
        // C (`volatile sig_atomic_t`): a Swift global written by a handler may be read once and kept.
        guard lfg_host_install_stop_handlers() == 0 else { fail("cannot install the SIGTERM handler: \(String(cString: strerror(errno)))") }

        log("heartbeats to \(url) as host '\(host)' every \(Int(policy.heartbeatInterval)) s (TTL \(Int(policy.ttlSeconds)) s); doorbell \(listener.path)")
        let runner = HostRunner(
            settings: .init(home: home, lfgExecutable: lfg, policy: policy), heartbeat: heartbeat,
            hooks: hookFiles(home: home, listener: listener), log: log)
        runner.run { lfg_host_stop_requested() != 0 }
        log("stopped")
        exit(0)
    }

    /// The hooks' files through the hooks' own types (HookIntake): one definition of every format.
    static func hookFiles(home: String, listener: HostDoorbell.Listener) -> HostRunner.HookFiles {
        HostRunner.HookFiles(
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
                    try InboxEntry.record(
                        Array(record.encoded().utf8), root: InboxEntry.root(home: home), key: key, wallNanoseconds: nanoseconds)
                    try AgentProcessRecord.remove(home: home, key: key)
                    return nil
                } catch {
                    return "\(error)"
                }
            })
    }

    /// One timestamped line on stderr (the journal, or launchd's log file).
    static func log(_ line: String) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        writeError("lfg host [\(time.tv_sec)] \(line)\n")
    }

    static func fail(_ message: String) -> Never {
        writeError("lfg host: \(message)\n")
        exit(1)
    }

    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue } else { return } }
            bytes.removeFirst(written)
        }
    }
}

/// The resident binary cannot reach this server (a TLS URL given to the plain-HTTP `lfg-host`, or
/// libcurl failing to start); says what to do.
public struct HostStartError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
