import AsyncTesting
import Foundation
import Testing

/// Issue 15's kill test and the process-level host-sleep and outage runs: real `lfg serve`, real `lfg host`,
/// and a fake agent that reports through the real `lfg hook`.
///
/// The fake agent is `timeout`, a program that is not a shell, running `sh -c` that pipes two Claude Code
/// payloads into the hook command `lfg hooks install` writes (`lfg-hook`, the hook's fast start, which
/// hands over to `lfg hook` for what it leaves) and then sleeps: exactly the shape of Claude Code running
/// its hooks through `/bin/sh -c`, so the hook records `timeout` as the session's agent process.
@Suite(.serialized) struct HostProcessTests {
    static let sid = "kill-test-1"
    /// The stated bound: a killed agent's session leaves the card within this many seconds.
    static let statedBound = 5.0

    /// `lfg host` (which execs `lfg-host`) as a child process.
    final class HostProcess: Sendable {
        let process: Process
        let output = ServeProcess.OutputBuffer()

        init(environment: [String: String]) throws {
            process = Process()
            process.executableURL = ServeProcess.executable
            process.arguments = ["host", "--interval", "1"]
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            let output = output
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil }
                output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var printed: String { output.text.withLock { $0 } }

        /// Waits until the host has logged `line` (polled every 50 ms, bounded).
        func waitFor(_ line: String, within seconds: Double) async throws {
            try await bounded("lfg host to log '\(line)'", within: .seconds(seconds)) {
                while !self.printed.contains(line) { try await Task.sleep(for: .milliseconds(50)) }
            }
        }

        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The two hook paths a session's events may take: `lfg-hook` (the fast start `lfg hooks install`
    /// writes, which records and rings the host) and the full `lfg hook` (what an agent configured by hand,
    /// or an event that waits for the phone, runs); the host must watch the agent either way.
    static let hookPaths = ["lfg-hook", "lfg hook"]

    /// The fake agent: `timeout` (its own process group) -> `sh -c` -> the hook (`hookPath`) twice, then `sleep`.
    static func startFakeAgent(environment: [String: String], hookPath: String) throws -> Process {
        let start = #"{"session_id":"\#(sid)","hook_event_name":"SessionStart","source":"startup","cwd":"/work/kill"}"#
        let prompt = #"{"session_id":"\#(sid)","hook_event_name":"UserPromptSubmit","prompt":"Build the thing","cwd":"/work/kill"}"#
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        agent.arguments = [
            "120", "/bin/sh", "-c", #"printf '%s' "$2" | "$1" ${4:+"$4"} && printf '%s' "$3" | "$1" ${4:+"$4"} && exec sleep 120"#,
            "sh", hookPath == "lfg hook" ? ServeProcess.executable.path
                : ServeProcess.executable.deletingLastPathComponent().appendingPathComponent("lfg-hook").path,
            start, prompt, hookPath == "lfg hook" ? "hook" : "",
        ]
        agent.environment = environment
        agent.standardInput = FileHandle.nullDevice
        try agent.run()
        return agent
    }

    /// The session's display state as the server lists it, or nil when it is not listed (archived or gone).
    static func listedState(_ serve: ServeProcess, token: String) async throws -> String? {
        let (_, json) = try await serve.call("GET", "/api/sessions", token: token)
        let sessions = json["sessions"] as? [[String: Any]] ?? []
        return sessions.first { $0["sid"] as? String == sid }?["displayState"] as? String
    }

    /// Polls the listing every 50 ms until `accept` holds for the session's state; bounded by `within`.
    @discardableResult
    static func waitForState(
        _ what: String, _ serve: ServeProcess, token: String, within seconds: Double, _ accept: @escaping @Sendable (String?) -> Bool
    ) async throws -> String? {
        try await bounded(what, within: .seconds(seconds)) {
            while true {
                let state = try await listedState(serve, token: token)
                if accept(state) { return state }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The session's `since` as the server keeps it (its baseline) and as the card shows it (the row pushed).
    static func sinceOnServerAndCard(_ serve: ServeProcess, token: String) async throws -> (server: Double?, card: Double?) {
        let (_, json) = try await serve.call("GET", "/api/push/live-activity/state", token: token)
        let card = (json["devices"] as? [[String: Any]])?.first?["card"] as? [String: Any]
        let baseline = (card?["since"] as? [String: Any])?[sid] as? [String: Any]
        let rows = (card?["contentState"] as? [String: Any])?["rows"] as? [[String: Any]]
        return (baseline?["since"] as? Double, rows?.first { $0["sid"] as? String == sid }?["since"] as? Double)
    }

    @Test("kill -9 of the agent: its session leaves the card within the stated bound; an outage or a sleep is no death",
          .timeLimit(.minutes(2)), arguments: hookPaths)
    func killTest(hookPath: String) async throws {
        let home = try makeTemporaryDirectory()
        let pushes = try MockPushes()
        defer { pushes.server.stop() }
        let port = freePort()
        var environment = try ServeProcessTests.environment(home: home, pushPort: port, apnsURL: pushes.server.baseURL)
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["HOME"] = home
        environment["LFG_URL"] = "http://127.0.0.1:\(port)"
        environment["LFG_HOST"] = "kill-test-host"
        environment["LFG_HOOK_BUDGET_MS"] = "10000"
        let token = ServeProcessTests.token
        let serve = try await ServeProcess.start(port: port, environment: environment)
        defer { serve.stop(SIGTERM) }
        let host = try HostProcess(environment: environment)
        defer { host.stop() }
        _ = try await serve.call(
            "POST", "/api/push/live-activity/start-token", #"{"token":"\#(String(repeating: "a", count: 64))","env":"sandbox"}"#, token: token)

        let agent = try Self.startFakeAgent(environment: environment, hookPath: hookPath)
        let agentPID = agent.processIdentifier
        defer { kill(-agentPID, SIGKILL) }  // the whole group: `timeout` and the `sleep` it left behind
        try await Self.waitForState("the fake agent's session to work", serve, token: token, within: 30) { $0 == "working" }
        #expect(try await pushes.next()?.event == "start")
        // The phone hands over the new card's update token, as the app does once the card runs.
        _ = try await serve.call(
            "POST", "/api/push/live-activity/update-token", #"{"token":"\#(String(repeating: "b", count: 64))","env":"sandbox"}"#, token: token)
        let record = home + "/hook-agents/\(Self.sid).json"
        let recorded = try String(contentsOfFile: record, encoding: .utf8)
        #expect(recorded.contains("\"pid\":\(agentPID)"), "the hook recorded the fake agent (timeout) as the session's process")

        // The card's row comes with the watcher's next tick after the session starts working.
        let since = try await bounded("the card to show the session's row", within: .seconds(15)) {
            while true {
                let since = try await Self.sinceOnServerAndCard(serve, token: token)
                if since.card != nil { return since }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(since.server != nil && since.server == since.card, "the card shows the server's baseline: \(since)")

        // A server outage is not a death: the server frozen until the host finds it unreachable, then thawed.
        kill(serve.process.processIdentifier, SIGSTOP)
        try await host.waitFor("server unreachable", within: 30)
        kill(serve.process.processIdentifier, SIGCONT)
        try await host.waitFor("server answers again", within: 30)
        #expect(try await Self.listedState(serve, token: token) == "working")

        // A sleeping host is not a death: `lfg host` frozen past its TTL (3 s) reads unknown; awake, working again.
        kill(host.process.processIdentifier, SIGSTOP)
        try await Self.waitForState("the frozen host's session to read unknown", serve, token: token, within: 15) { $0 == "unknown" }
        kill(host.process.processIdentifier, SIGCONT)
        try await Self.waitForState("the woken host's session to work again", serve, token: token, within: 15) { $0 == "working" }
        let sinceAfter = try await Self.sinceOnServerAndCard(serve, token: token)
        #expect(sinceAfter.server == since.server && sinceAfter.card == since.card, "since kept through the outage and the sleep: \(since) then \(sinceAfter)")
        #expect(FileManager.default.fileExists(atPath: record), "still watched")

        // The agent dies.
        let killedAt = ContinuousClock.now
        kill(agentPID, SIGKILL)
        try await Self.waitForState("the killed agent's session to leave", serve, token: token, within: 30) { $0 == nil }
        let elapsed = ContinuousClock.now - killedAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("kill test (\(hookPath)): session \(Self.sid) left the card \(String(format: "%.2f", seconds)) s after kill -9 of its agent (stated bound \(Self.statedBound) s)")
        #expect(seconds < Self.statedBound)
        // It was the last session: the card ends (after any update the adoption or the host's return sent).
        var events: [String] = []
        while events.last != "end", events.count < 5, let push = try await pushes.next() { events.append(push.event) }
        #expect(events.last == "end", "pushes after the start: \(events)")
        #expect(!events.dropLast().contains("end"))
        #expect(host.printed.contains("is gone; ending the session"), "\(host.printed)")
    }

    @Test("SIGTERM (systemctl stop, launchctl unload) stops lfg host at once, saying so", .timeLimit(.minutes(1)))
    func stopsOnSIGTERM() async throws {
        let home = try makeTemporaryDirectory()
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home]
        environment["LFG_HOME"] = home
        environment["LFG_URL"] = "http://127.0.0.1:\(freePort())"  // nobody listens: it retries, and still stops
        let host = try HostProcess(environment: environment)
        defer { host.stop() }
        try await host.waitFor("heartbeats to", within: 30)
        kill(host.process.processIdentifier, SIGTERM)
        try await host.waitFor("stopped", within: 10)
        try await bounded("lfg host to exit after SIGTERM", within: .seconds(10)) {
            while host.process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(host.process.terminationStatus == 0)
    }
}
