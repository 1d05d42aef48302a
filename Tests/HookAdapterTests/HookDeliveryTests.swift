import LFGCommandTesting
import FleetCore
import Foundation
import HookAdapter
import Testing

@Suite("lfg hook against a real loopback server")
struct HookDeliveryTests {
    /// Nothing listens on loopback port 1 (tests bind port 0, which never hands out a privileged port).
    static let downURL = "http://127.0.0.1:1"
    /// Without the time budget a hung server holds the hook forever; any finite wait far above the budget
    /// proves the bound without timing the machine (a loaded test run stalls tasks for seconds).
    static let noHangBound = Duration.seconds(15)

    /// Runs `lfg hook`. Calls to a server that answers get a 10 s budget, so a loaded machine cannot turn a
    /// slow answer into a timeout; calls that test the bound keep the default budget.
    static func hook(_ payload: String, home: String, url: String, generousBudget: Bool = false) async
        -> (status: Int32, output: String, errors: String)
    {
        var environment = ["LFG_HOME": home, "LFG_URL": url, "LFG_AUTH_TOKEN": "0123456789abcdef"]
        if generousBudget { environment["LFG_HOOK_BUDGET_MS"] = "10000" }
        return await CapturedRun.run(["hook"], input: payload, environment: environment)
    }

    /// The reports without consecutive repeats: a PUT whose answer came after the request timeout
    /// (a loaded machine) stays spooled and is sent again, which the idempotent PUT makes harmless.
    static func collapsed(_ reports: [SessionReport]) -> [SessionReport] {
        reports.enumerated().filter { $0.offset == 0 || reports[$0.offset - 1] != $0.element }.map(\.element)
    }

    @Test("Each event becomes a PUT of the session's report, with the bearer token")
    func delivered() async throws {
        let folder = try TemporaryFolder()
        let server = RecordingServer()
        try await server.serve { url in
            for event in RecordedPayloads.wholeSession.prefix(3) {
                let run = await Self.hook(event.payload, home: folder.path, url: url, generousBudget: true)
                #expect(run.status == 0 && run.output.isEmpty)
            }
        }
        let received = server.reports
        #expect(Self.collapsed(received.map(\.report)).map(\.step) == [nil, nil, "Read SessionListView.swift"])
        #expect(received.allSatisfy { $0.sid == RecordedPayloads.sid && $0.authorization == "Bearer 0123456789abcdef" })
        #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
    }

    @Test("Server down: the hook exits 0 in bounded time, spools, and the next call once it is back delivers in order")
    func downThenBack() async throws {
        let folder = try TemporaryFolder()
        let clock = ContinuousClock()
        var spooledSteps: [String?] = []
        for event in RecordedPayloads.wholeSession.prefix(8) {
            let started = clock.now
            let run = await Self.hook(event.payload, home: folder.path, url: Self.downURL)
            // A correctness bound (no hang), far above the 0.5 s budget: the parallel suite can starve this
            // test's tasks for seconds. Speed is measured by bench/hook-latency.sh, in its own process.
            #expect(started.duration(to: clock.now) < Self.noHangBound)
            #expect(run.status == 0 && run.output.isEmpty)
            #expect(!run.errors.contains("0123456789abcdef"))
            spooledSteps = HookFiles(home: folder.url).pendingReports().map(\.report.step)
        }
        #expect(spooledSteps == [nil, nil, "Read SessionListView.swift", "Bash: swift test", "Bash: rm -rf .build", "Bash: rm -rf .build"])
        let server = RecordingServer()
        try await server.serve { url in
            let run = await Self.hook(RecordedPayloads.postToolUseRemove, home: folder.path, url: url, generousBudget: true)
            #expect(run.status == 0)
        }
        let received = Self.collapsed(server.reports.map(\.report))
        #expect(received.map(\.step) == spooledSteps + ["Bash: rm -rf .build"])
        #expect(received.map { DisplayState.resolve($0, isHostDown: false) } == [.idle, .working, .working, .working, .working, .needsInput, .working])
        #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
    }

    @Test("A server that accepts but never answers costs at most the time budget, and the report stays spooled")
    func hungServer() async throws {
        let folder = try TemporaryFolder()
        let server = RecordingServer(hangs: true)
        let clock = ContinuousClock()
        let elapsed = try await server.serve { url in
            let started = clock.now
            let run = await Self.hook(RecordedPayloads.sessionStart, home: folder.path, url: url)
            #expect(run.status == 0 && run.output.isEmpty)
            return started.duration(to: clock.now)
        }
        #expect(elapsed < Self.noHangBound)
        #expect(HookFiles(home: folder.url).pendingReports().count == 1)
    }
}
