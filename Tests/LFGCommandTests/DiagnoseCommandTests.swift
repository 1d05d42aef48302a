import LFGCommandTesting
import Foundation
import LFGCommand
import Testing

@Suite struct DiagnoseCommandTests {
    /// A fresh folder per test, removed afterwards.
    private func withTemporaryHome(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-diagnose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    private let sampleLog = """
        {"action":"start","deviceId":"phone","event":"decide","tokens":2,"ts":1000}
        {"action":"start","deviceId":"phone","env":"sandbox","event":"send","ms":10,"status":200,"token":"aaaa1111","ts":1000}
        {"deviceId":"phone","event":"adopted","token":"bbbb2222","ts":1005}
        {"ts": 1010, "event": "cli
        """

    @Test("Without --log it reads liveactivity.log in LFG_HOME and prints the text report")
    func readsDefaultLog() async throws {
        try await withTemporaryHome { home in
            try sampleLog.write(to: home.appendingPathComponent("liveactivity.log"), atomically: true, encoding: .utf8)
            let run = await CapturedRun.run(["diagnose"], environment: ["LFG_HOME": home.path])
            #expect(run.status == 0)
            #expect(run.output.contains("4 lines, 3 entries; skipped 1 (line 4 truncated)"))
            #expect(run.output.contains("Starts: 1: 1 adopted within 90 s"))
        }
    }

    @Test("--json prints the report as one JSON object")
    func printsJSON() async throws {
        try await withTemporaryHome { home in
            let log = home.appendingPathComponent("other.log")
            try sampleLog.write(to: log, atomically: true, encoding: .utf8)
            let run = await CapturedRun.run(["diagnose", "--log", log.path, "--json"])
            #expect(run.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(object["entries"] as? Int == 3)
            let devices = try #require(object["devices"] as? [[String: Any]])
            let starts = try #require(devices.first?["starts"] as? [String: Any])
            let listed = try #require(starts["listed"] as? [[String: Any]])
            #expect(listed.first?["family"] as? String == "delivery-or-content")
        }
    }

    @Test("A missing log fails with exit 1 and says what to do")
    func missingLogFails() async throws {
        let run = await CapturedRun.run(["diagnose", "--log", "/nonexistent/lfg.log"])
        #expect(run.status == 1)
        #expect(run.errors.contains("cannot read the decision log '/nonexistent/lfg.log'"))
    }

    @Test("An unknown option is a usage error")
    func unknownOptionIsUsageError() async {
        let run = await CapturedRun.run(["diagnose", "--jsn"])
        #expect(run.status == 2)
    }
}
