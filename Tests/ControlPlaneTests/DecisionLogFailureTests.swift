import ControlPlane
import FleetCore
import Foundation
import Synchronization
import Testing

/// A decision-log writer that refuses every write, as a full disk does.
final class FailingLogWriter: DecisionLogWriter {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
    private let calls = Mutex(0)
    var attempts: Int { calls.withLock { $0 } }
    func append(_ data: Data) throws {
        calls.withLock { $0 += 1 }
        throw DiskFull()
    }
}

/// Collects what a component reports as a problem.
final class ProblemRecorder: Sendable {
    private let messages = Mutex<[String]>([])
    var all: [String] { messages.withLock { $0 } }
    var report: @Sendable (String) -> Void { { message in self.messages.withLock { $0.append(message) } } }
}

@Suite struct DecisionLogFailureTests {
    @Test("A failed write is counted per lost line and said once, not swallowed")
    func failedWritesAreCounted() async {
        let writer = FailingLogWriter()
        let problems = ProblemRecorder()
        let log = DecisionLogFile(path: "/full/liveactivity.log", writer: writer, reportProblem: problems.report)
        await log.append([.noTokens(at: 1, deviceId: "phone", action: .start)])
        await log.append([
            .clientEnded(at: 2, deviceId: "phone", veto: [], hadCard: true),
            .startVetoed(at: 3, deviceId: "phone", veto: ["s1"], active: 1),
        ])
        #expect(writer.attempts == 2)
        #expect(log.unwrittenLines == 3)
        #expect(problems.all.count == 1)
        #expect(problems.all.first?.contains("/full/liveactivity.log") == true)
        #expect(problems.all.first?.contains("No space left on device") == true)
    }

    @Test("The state endpoint shows how many decision-log lines were not written")
    func stateShowsUnwrittenLines() async throws {
        let log = DecisionLogFile(path: "/full/liveactivity.log", writer: FailingLogWriter(), reportProblem: { _ in })
        let harness = try await ServiceHarness(decisionLog: log)
        #expect(await harness.call("GET", "/api/push/live-activity/state").json["decisionLogUnwrittenLines"] as? Int == 0)
        try await harness.service.reportEnded("phone")
        let state = await harness.call("GET", "/api/push/live-activity/state")
        #expect(state.json["decisionLogUnwrittenLines"] as? Int == 1)
    }

    @Test("A healthy file log loses nothing")
    func healthyFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-log-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try DecisionLogFile(path: path, reportProblem: { Issue.record("unexpected problem: \($0)") })
        await log.append([.noTokens(at: 1, deviceId: "phone", action: .start)])
        #expect(log.unwrittenLines == 0)
        #expect(DecisionLogFile.tail(path: path, limit: 5).count == 1)
    }
}
