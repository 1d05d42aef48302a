import AsyncTesting
import FleetCore
import Foundation
import HTTPClient
import HookAdapter
import LFGCommandTesting
import Testing

@Suite("Many hooks at once, and a hook killed mid-delivery")
struct ConcurrentHooksTests {
    static let token = "0123456789abcdef"

    static func step(session: Int, event: Int) -> String { "Bash: step \(session).\(event)" }

    static func payload(session: Int, event: Int) -> String {
        #"{"session_id": "burst-\#(session)", "cwd": "/work/p\#(session)", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "step \#(session).\#(event)"}}"#
    }

    /// How the burst's events reach the server besides the hooks' own deliveries.
    enum Host: String, CaseIterable, CustomStringConvertible {
        /// Nobody listens on the doorbell: each hook delivers (`lfg-hook` hands its session to `lfg hook`).
        case none
        /// A listener on `$LFG_HOME/host.sock` delivers what is rung, as `lfg host` does
        /// (``SpoolDrainer/deliverRung(_:_:deadline:)``).
        case listening

        var description: String { rawValue }
    }

    /// `lfg host`'s doorbell loop in miniature: waits for rings (in slices, so cancellation ends it) and
    /// delivers them, until cancelled.
    static func runHost(_ listener: HostDoorbell.Listener, files: HookFiles, url: String) async {
        let deliverer = SessionDeliverer(
            files: files, delivery: HTTPReportDelivery(client: HTTPClient(), baseURL: url, token: token),
            tokenFingerprint: TokenFingerprint.of(token))
        while !Task.isCancelled {
            guard listener.waitForRing(timeoutSeconds: 0.05) else { continue }
            _ = await SpoolDrainer.deliverRung(listener.receiveKeys(), deliverer, deadline: HookDeadline(seconds: 10))
        }
    }

    @Test(
        "50 hook processes at once across 10 sessions: nothing lost, each session's reports reach the server in event order",
        .timeLimit(.minutes(2)),
        arguments: [(HookProcess.Program.lfgHook, Host.none), (.fastStart, .none), (.fastStart, .listening)])
    func burst(program: HookProcess.Program, host: Host) async throws {
        let folder = try TemporaryFolder()
        let server = RecordingServer()
        let files = HookFiles(home: folder.url)
        let payloads = (0..<10).flatMap { session in (0..<5).map { Self.payload(session: session, event: $0) } }
        try await server.serve { url in
            // The real budget (0.5 s): a hook that runs out of it leaves its event recorded for the
            // drain below, which is what `lfg serve` does at start.
            let environment = ["LFG_HOME": folder.path, "LFG_URL": url, "LFG_AUTH_TOKEN": Self.token, "LFG_HOST": "burst-host"]
            let listener = host == .listening ? try HostDoorbell.Listener(home: folder.path) : nil
            try await withThrowingTaskGroup(of: Void.self) { group in
                if let listener { group.addTask { await Self.runHost(listener, files: files, url: url) } }
                let statuses = try await HookProcess.burst(payloads.shuffled(), environment: environment, program: program)
                #expect(statuses == Array(repeating: 0, count: 50))
                group.cancelAll()
            }
            let delivery = HTTPReportDelivery(client: HTTPClient(), baseURL: url, token: Self.token)
            _ = await SpoolDrainer.drain(files, using: delivery, deadline: HookDeadline(seconds: 30))
            #expect(files.inbox.sessionKeys().isEmpty)
        }
        let arrivals = server.reports
        for session in 0..<10 {
            let mine = arrivals.filter { $0.sid == "burst-\(session)" }
            let seqs = mine.compactMap(\.seq)
            #expect(seqs.count == mine.count, "every report carries its sequence number")
            // A resend (after a request timed out) repeats a number; a number never arrives before a smaller one.
            let firstArrivals = seqs.enumerated().filter { !seqs.prefix($0.offset).contains($0.element) }.map(\.element)
            #expect(firstArrivals == [1, 2, 3, 4, 5], "session \(session): \(seqs)")
            // Every event became a report, and the session ends in the state of its last event.
            let steps = Set(mine.compactMap(\.report.step))
            #expect(steps == Set((0..<5).map { Self.step(session: session, event: $0) }))
            let last = mine.last { $0.seq == 5 }
            #expect(mine.last?.report == last?.report)
            #expect(mine.allSatisfy { $0.report.host == "burst-host" && $0.report.busy })
        }
        // With the cheap start, each event's record names the agent process that ran the hook (this test).
        if program == .fastStart {
            let agents = AgentProcessRecord.readAll(home: folder.path)
            #expect(Set(agents.keys) == Set((0..<10).map { "burst-\($0)" }))
            #expect(agents.values.allSatisfy { $0.process.pid == getpid() && $0.isAgentRunning })
        }
    }

    /// Who delivers after the kill.
    enum After: String, CaseIterable, CustomStringConvertible {
        /// The session's next hook.
        case nextHook = "the next hook"
        /// `lfg hooks drain` (what `lfg serve` does at start, and `lfg host` when rung).
        case drain = "lfg hooks drain"

        var description: String { rawValue }
    }

    @Test("A hook killed with kill -9 in the middle of delivering loses nothing: whoever delivers next takes it, in order",
        .timeLimit(.minutes(1)),
        arguments: [(HookProcess.Program.lfgHook, After.nextHook), (.fastStart, .nextHook), (.fastStart, .drain)])
    func killedMidDelivery(program: HookProcess.Program, after: After) async throws {
        let folder = try TemporaryFolder()
        let server = RecordingServer(leaveUnanswered: 1)
        try await server.serve { url in
            let environment = ["LFG_HOME": folder.path, "LFG_URL": url, "LFG_AUTH_TOKEN": Self.token, "LFG_HOOK_BUDGET_MS": "10000"]
            let process = try HookProcess.start(Self.payload(session: 0, event: 0), environment: environment, program: program)
            let held = try await Inbox(draining: server.unanswered).next("the report the server holds unanswered")
            #expect(held?.seq == 1)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            switch after {
            case .nextHook:
                let exit = Inbox<Int32>()
                _ = try HookProcess.start(Self.payload(session: 0, event: 1), environment: environment, program: program) {
                    exit.yield($0)
                }
                #expect(try await exit.next("the next hook to exit") == 0)
            case .drain:
                #expect(await CapturedRun.run(["hooks", "drain", "--timeout", "10"], environment: environment).status == 0)
            }
        }
        let steps = after == .nextHook ? [0, 1] : [0]
        #expect(server.reports.map(\.seq) == steps.map { $0 + 1 })
        #expect(server.reports.map(\.report.step) == steps.map { Self.step(session: 0, event: $0) })
        #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
    }
}
