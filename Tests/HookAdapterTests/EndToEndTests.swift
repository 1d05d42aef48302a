@testable import LFGCommand
import LFGCommandTesting
import FleetCore
import Foundation
import HookAdapter
import Testing

@Suite("Recorded hook payloads against a running lfg serve")
struct EndToEndTests {
    static let token = "e2e0123456789abcdef0123456789abcd"

    /// The display state `GET /api/sessions` should show after each event of the recorded session
    /// (nil: not listed, because archived).
    static let expected: [String?] = [
        "idle", "working", "working", "working", "working", "working", "working", "needsInput", "needsInput",
        "working", "working", "working", "working", "working", "idle", nil,
    ]

    @Test("Spooled while the server was down, then each event shows on GET /api/sessions as it happens")
    func wholeSession() async throws {
        let folder = try TemporaryFolder()
        let environment = ["LFG_HOME": folder.path, "LFG_AUTH_TOKEN": Self.token]
        let events = RecordedPayloads.wholeSession
        #expect(events.count == Self.expected.count)
        // Down: the first three events only reach the spool.
        for event in events.prefix(3) {
            var down = environment
            down["LFG_URL"] = "http://127.0.0.1:1"
            let run = await CapturedRun.run(["hook"], input: event.payload, environment: down)
            #expect(run.status == 0 && run.output.isEmpty)
        }
        #expect(HookFiles(home: folder.url).pendingReports().count == 3)
        try await RunningServe.with(environment: environment) { url in
            var hookEnvironment = environment
            hookEnvironment["LFG_URL"] = url
            hookEnvironment["LFG_HOOK_BUDGET_MS"] = "10000"  // a loaded machine must not turn slow into spooled
            for (index, event) in events.enumerated().dropFirst(3) {
                let run = await CapturedRun.run(["hook"], input: event.payload, environment: hookEnvironment)
                #expect(run.status == 0 && run.output.isEmpty, "\(event.name)")
                let session = try await RunningServe.sessions(url, token: Self.token)[RecordedPayloads.sid]
                #expect(session?["displayState"] as? String == Self.expected[index], "\(event.name)")
                if index == 7 {
                    let prompt = session?["prompt"] as? [String: Any]
                    #expect(prompt?["kind"] as? String == "permission")
                    #expect(prompt?["text"] as? String == "Bash: rm -rf .build")
                }
                if index == 13 {
                    #expect(session?["step"] as? String == "Edit SessionListView.swift")
                    #expect(session?["title"] as? String == "In the iOS client, can you add pull-to-refresh…")
                }
            }
            #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
        }
    }

    @Test("lfg serve takes what the hook spooled while it was down as soon as it starts")
    func serverStartDrains() async throws {
        let folder = try TemporaryFolder()
        let environment = ["LFG_HOME": folder.path, "LFG_AUTH_TOKEN": Self.token]
        for event in RecordedPayloads.wholeSession.prefix(8) {
            let run = await CapturedRun.run(["hook"], input: event.payload, environment: environment.merging(["LFG_URL": "http://127.0.0.1:1"]) { $1 })
            #expect(run.status == 0)
        }
        let session = try await RunningServe.with(environment: environment) { url in
            try await RunningServe.sessions(url, token: Self.token)[RecordedPayloads.sid]?["displayState"] as? String
        }
        #expect(session == "needsInput")
        #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
    }

    @Test("A wrong token is named by its first characters and where it came from, and is not retried until it changes")
    func wrongToken() async throws {
        let folder = try TemporaryFolder()
        let environment = ["LFG_HOME": folder.path, "LFG_AUTH_TOKEN": Self.token]
        try await RunningServe.with(environment: environment) { url in
            let wrong = ["LFG_HOME": folder.path, "LFG_URL": url, "LFG_AUTH_TOKEN": "wrongtoken0123", "LFG_HOOK_BUDGET_MS": "10000"]
            let first = await CapturedRun.run(["hook"], input: RecordedPayloads.sessionStart, environment: wrong)
            #expect(first.errors.contains("refused token wron… from LFG_AUTH_TOKEN in the environment (HTTP 401)"))
            #expect(!first.errors.contains("wrongtoken0123"))
            let second = await CapturedRun.run(["hook"], input: RecordedPayloads.userPromptSubmit, environment: wrong)
            #expect(second.errors.contains("2 report(s) kept, not retried until the token changes"))
            var right = wrong
            right["LFG_AUTH_TOKEN"] = Self.token
            let fixed = await CapturedRun.run(["hook"], input: RecordedPayloads.preToolUseRead, environment: right)
            #expect(fixed.errors.isEmpty)
            let session = try await RunningServe.sessions(url, token: Self.token)[RecordedPayloads.sid]
            #expect(session?["step"] as? String == "Read SessionListView.swift")
        }
        #expect(HookFiles(home: folder.url).pendingReports().isEmpty)
    }

    @Test("lfg hooks drain delivers what is pending and exits 0; with the server away it keeps it and exits 1")
    func drainCommand() async throws {
        let folder = try TemporaryFolder()
        let environment = ["LFG_HOME": folder.path, "LFG_AUTH_TOKEN": Self.token]
        for event in RecordedPayloads.wholeSession.prefix(3) {
            _ = await CapturedRun.run(["hook"], input: event.payload, environment: environment.merging(["LFG_URL": "http://127.0.0.1:1"]) { $1 })
        }
        let away = await CapturedRun.run(["hooks", "drain", "--timeout", "5"], environment: environment.merging(["LFG_URL": "http://127.0.0.1:1"]) { $1 })
        #expect(away.status == 1)
        #expect(away.output.contains("still pending 3"))
        let store = RecordingServer()
        try await store.serve { url in
            let run = await CapturedRun.run(["hooks", "drain"], environment: environment.merging(["LFG_URL": url]) { $1 })
            #expect(run.status == 0)
            #expect(run.output.contains("delivered 3, refused for good 0, still pending 0"))
        }
        #expect(store.reports.map(\.seq) == [1, 2, 3])
        #expect(HookFiles(home: folder.url).inbox.sessionKeys().isEmpty)
    }

    @Test("lfg serve's intake says what it left pending or dropped, and nothing when it took everything")
    func intakeSummary() {
        var result = SpoolDrainer.Result()
        result.delivered = 4
        #expect(HookSpoolIntake.summary(result) == nil)
        result.remaining = 2
        result.stoppedBecause = .outOfTime
        #expect(HookSpoolIntake.summary(result) == "took 4 hook report(s) recorded while it was down, refused 0 for good, 2 still pending (out of time); `lfg hooks drain` delivers them")
    }
}
