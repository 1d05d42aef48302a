import AsyncTesting
import FleetCore
import Foundation
import HTTPClient
import HookAdapter
import Testing

@Suite("Many hooks at once, and a hook killed mid-delivery")
struct ConcurrentHooksTests {
    static let token = "0123456789abcdef"

    static func step(session: Int, event: Int) -> String { "Bash: step \(session).\(event)" }

    static func payload(session: Int, event: Int) -> String {
        #"{"session_id": "burst-\#(session)", "cwd": "/work/p\#(session)", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "step \#(session).\#(event)"}}"#
    }

    @Test(
        "50 hook processes at once across 10 sessions: nothing lost, each session's reports reach the server in event order",
        .timeLimit(.minutes(2)))
    func burst() async throws {
        let folder = try TemporaryFolder()
        let server = RecordingServer()
        try await server.serve { url in
            // The real budget (0.5 s): a hook that runs out of it leaves its event recorded for the
            // drain below, which is what `lfg serve` does at start.
            let environment = ["LFG_HOME": folder.path, "LFG_URL": url, "LFG_AUTH_TOKEN": Self.token, "LFG_HOST": "burst-host"]
            let payloads = (0..<10).flatMap { session in (0..<5).map { Self.payload(session: session, event: $0) } }
            let statuses = try await HookProcess.burst(payloads.shuffled(), environment: environment)
            #expect(statuses == Array(repeating: 0, count: 50))
            let files = HookFiles(home: folder.url)
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
    }

    @Test("A hook killed with kill -9 in the middle of delivering loses nothing: the next hook delivers it, in order",
        .timeLimit(.minutes(1)))
    func killedMidDelivery() async throws {
        let folder = try TemporaryFolder()
        let server = RecordingServer(leaveUnanswered: 1)
        try await server.serve { url in
            let environment = ["LFG_HOME": folder.path, "LFG_URL": url, "LFG_AUTH_TOKEN": Self.token, "LFG_HOOK_BUDGET_MS": "10000"]
            let process = try HookProcess.start(Self.payload(session: 0, event: 0), environment: environment)
            let held = try await Inbox(draining: server.unanswered).next("the report the server holds unanswered")
            #expect(held?.seq == 1)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            let next = await HookDeliveryTests.hook(Self.payload(session: 0, event: 1), home: folder.path, url: url, generousBudget: true)
            #expect(next.status == 0)
        }
        #expect(server.reports.map(\.seq) == [1, 2])
        #expect(server.reports.map(\.report.step) == [Self.step(session: 0, event: 0), Self.step(session: 0, event: 1)])
        #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
    }
}
