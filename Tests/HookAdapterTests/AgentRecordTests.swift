import FleetCore
import Foundation
import HookAdapter
import Synchronization
import Testing

/// Issue 15: `lfg host` watches the agent process whichever hook path ran. `lfg-hook` (the fast start)
/// keeps the record; so must the full `lfg hook` (run directly, or handed an event that may wait for the phone).
@Suite("The full lfg hook keeps the agent process record as lfg-hook does")
struct AgentRecordTests {
    static let agent = AgentProcess(pid: 4242, startTime: 987_654, name: "claude", parentPID: 1)

    final class Rings: Sendable {
        let keys = Mutex<[String]>([])
        func ring(_ key: String) -> Bool {
            keys.withLock { $0.append(key) }
            return true
        }
    }

    static func runner(_ folder: TemporaryFolder, rings: Rings, process: AgentProcess?) -> HookRunner {
        var runner = HookRunner(
            files: HookFiles(home: folder.url), host: HostID("mbp"),
            delivery: RecordingReportDelivery(outcome: { _ in .delivered }), wallClock: { 1_764_620_000 })
        runner.agentProcess = { process }
        runner.ringHost = { rings.ring($0) }
        return runner
    }

    @Test("Written at the first event and the host rung; the same process again writes and rings nothing; SessionEnd removes it and rings")
    func keptAndRemoved() async throws {
        let folder = try TemporaryFolder()
        let rings = Rings()
        let runner = Self.runner(folder, rings: rings, process: Self.agent)
        let key = SessionKey.of(RecordedPayloads.sid)

        let start = await runner.handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 5))
        #expect(start.recorded == key && start.agentRecordProblem == nil)
        #expect(
            AgentProcessRecord.read(home: folder.path, key: key)
                == AgentProcessRecord(sid: RecordedPayloads.sid, host: HostID("mbp"), agent: "claude", process: Self.agent, seenAt: 1_764_620_000))
        #expect(rings.keys.withLock { $0 } == [key])

        _ = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: HookDeadline(seconds: 5))
        #expect(rings.keys.withLock { $0 } == [key], "an unchanged record rings nobody")

        _ = await runner.handle(RecordedPayloads.sessionEnd, deadline: HookDeadline(seconds: 5))
        #expect(AgentProcessRecord.read(home: folder.path, key: key) == nil)
        #expect(rings.keys.withLock { $0 } == [key, key])
    }

    @Test("No agent process found (a hook run by hand): the event is recorded, no record, no ring")
    func noProcess() async throws {
        let folder = try TemporaryFolder()
        let rings = Rings()
        let summary = await Self.runner(folder, rings: rings, process: nil).handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 5))
        #expect(summary.recorded != nil && summary.agentRecordProblem == nil)
        #expect(AgentProcessRecord.readAll(home: folder.path).isEmpty)
        #expect(rings.keys.withLock { $0 }.isEmpty)
    }

    @Test("A record that cannot be written is said, and costs the event nothing")
    func unwritable() async throws {
        let folder = try TemporaryFolder()
        // A file where the records' folder should be.
        try Data().write(to: folder.url.appendingPathComponent(AgentProcessRecord.folderName))
        let rings = Rings()
        let summary = await Self.runner(folder, rings: rings, process: Self.agent).handle(
            RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 5))
        #expect(summary.recorded != nil && summary.problem == nil)
        #expect(summary.agentRecordProblem?.contains("could not keep the agent process record for lfg host") == true)
        #expect(summary.drain.delivered == 1)
    }
}
