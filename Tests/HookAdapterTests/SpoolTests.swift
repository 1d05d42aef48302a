import FleetCore
import Foundation
import HookAdapter
import Testing

@Suite("The spool: nothing lost, delivered in order")
struct SpoolTests {
    static let down: @Sendable (SpooledReport) -> DeliveryOutcome = { _ in .failed(reason: "connection refused") }

    static func runner(_ folder: TemporaryFolder, _ delivery: RecordingReportDelivery, now: UnixTime = 1_000) -> HookRunner {
        HookRunner(files: HookFiles(home: folder.url), delivery: delivery, wallClock: { now })
    }

    static func deadline() -> HookDeadline { HookDeadline(seconds: 5) }

    @Test("With the server down every report is spooled in order, then delivered in order once it is back")
    func downThenUp() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        var queued: [SpooledReport] = []
        for event in RecordedPayloads.wholeSession.prefix(8) {
            let summary = await runner.handle(event.payload, deadline: Self.deadline())
            #expect(summary.problem == nil)
            queued += summary.queued
        }
        #expect(queued.count == 6)
        #expect(runner.files.spooledReports() == queued)
        // Each call tried the oldest report once and stopped at its failure, keeping the order.
        #expect(await delivery.attempts.allSatisfy { $0 == queued[0] })

        await delivery.setOutcome { _ in .delivered }
        let summary = await runner.handle(RecordedPayloads.permissionNotification, deadline: Self.deadline())
        #expect(summary.queued.isEmpty)
        #expect(summary.drain.delivered == 6)
        #expect(await delivery.delivered == queued)
        #expect(runner.files.spooledReports().isEmpty)
    }

    @Test("A new report waits behind older spooled ones instead of overtaking them")
    func noOvertaking() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        let first = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        await delivery.setOutcome { _ in .delivered }
        let second = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(await delivery.delivered == first.queued + second.queued)
    }

    @Test("A report the server refuses for good is dropped so it cannot block the rest")
    func rejectedIsDropped() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        let first = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        let firstReport = try #require(first.queued.first)
        await delivery.setOutcome { $0 == firstReport ? .rejected(status: 400) : .delivered }
        let second = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(second.drain.rejected == 1)
        #expect(await delivery.delivered == second.queued)
        #expect(runner.files.spooledReports().isEmpty)
    }

    @Test("A wrong token keeps the reports spooled for when it is fixed")
    func unauthorizedKeeps() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery { _ in DeliveryOutcome.forStatus(401) }
        let runner = Self.runner(folder, delivery)
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        #expect(runner.files.spooledReports().count == 1)
    }

    @Test("With no time left nothing is attempted and the report waits in the spool")
    func outOfTime() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery()
        let runner = Self.runner(folder, delivery)
        let summary = await runner.handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 0))
        #expect(await delivery.attempts.isEmpty)
        #expect(summary.drain.remaining == 1)
        #expect(summary.drain.stoppedBecause == "out of time")
    }

    @Test("Bad input records nothing but still delivers what earlier calls spooled")
    func badInputStillDrains() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        await delivery.setOutcome { _ in .delivered }
        let summary = await runner.handle("not json", deadline: Self.deadline())
        #expect(summary.problem?.contains("not JSON") == true)
        #expect(summary.drain.delivered == 1)
    }

    @Test("A corrupt spool line is skipped and dropped; the reports around it still go in order")
    func corruptLine() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        let first = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        let handle = try FileHandle(forWritingTo: runner.files.spool)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"half\n".utf8))
        try handle.close()
        await delivery.setOutcome { _ in .delivered }
        let second = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(await delivery.delivered == first.queued + second.queued)
        #expect(folder.read("hook-spool.jsonl") == "")
    }

    @Test("The server's start-up drain delivers the spool through any delivery")
    func serverDrain() async throws {
        let folder = try TemporaryFolder()
        let runner = Self.runner(folder, RecordingReportDelivery(outcome: Self.down))
        let first = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        let store = RecordingReportDelivery()
        let result = await SpoolDrainer.drain(HookFiles(home: folder.url), using: store, deadline: Self.deadline())
        #expect(result.delivered == 1 && result.remaining == 0)
        #expect(await store.delivered == first.queued)
    }

    @Test("A spool past its limit keeps only each session's newest report, in order")
    func compaction() async throws {
        let folder = try TemporaryFolder()
        let runner = HookRunner(
            files: HookFiles(home: folder.url), delivery: RecordingReportDelivery(outcome: Self.down), spoolLimit: 10,
            wallClock: { 1_000 })
        var last: [String: SpooledReport] = [:]
        for index in 0..<15 {
            let sid = "s\(index % 3)"
            let payload = #"{"session_id": "\#(sid)", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo \#(index)"}}"#
            let summary = await runner.handle(payload, deadline: HookDeadline(seconds: 0))
            last[sid] = summary.queued.last
        }
        let spooled = runner.files.spooledReports()
        // 11 reports went over the limit and left 3; four more came after.
        #expect(spooled.count == 7)
        #expect(Set(spooled.suffix(3)) == Set(last.values))
        #expect(spooled.last == last["s2"])
    }

    @Test("After a timeout, hooks leave the server alone for the pause, then try again")
    func slowServerPause() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery { _ in .timedOut(reason: "timed out") }
        _ = await Self.runner(folder, delivery, now: 1_000).handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        #expect(await delivery.attempts.count == 1)
        await delivery.setOutcome { _ in .delivered }
        let paused = await Self.runner(folder, delivery, now: 1_009.9).handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(await delivery.attempts.count == 1)
        #expect(paused.drain.remaining == 2)
        let resumed = await Self.runner(folder, delivery, now: 1_010).handle(RecordedPayloads.stop, deadline: Self.deadline())
        #expect(resumed.drain.delivered == 3)
        #expect(FileManager.default.fileExists(atPath: folder.file("hook-paused-until")) == false)
    }

    @Test("A refused connection pauses nothing: the next call tries again at once")
    func refusedDoesNotPause() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        _ = await Self.runner(folder, delivery, now: 1_000).handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        _ = await Self.runner(folder, delivery, now: 1_000.1).handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(await delivery.attempts.count == 2)
    }

    @Test("The server's start-up drain ignores the pause")
    func serverDrainIgnoresPause() async throws {
        let folder = try TemporaryFolder()
        _ = await Self.runner(folder, RecordingReportDelivery { _ in .timedOut(reason: "t") }).handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        let store = RecordingReportDelivery()
        let result = await SpoolDrainer.drain(HookFiles(home: folder.url), using: store, deadline: Self.deadline())
        #expect(result.delivered == 1)
    }

    @Test("A session start deletes the state of sessions untouched for 30 days, and keeps the rest")
    func pruning() async throws {
        let folder = try TemporaryFolder()
        let now = Date().timeIntervalSince1970
        let runner = Self.runner(folder, RecordingReportDelivery(), now: now)
        _ = await runner.handle(#"{"session_id": "old", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        _ = await runner.handle(#"{"session_id": "recent", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        let old = folder.file("hook-sessions/old.json")
        let aged = Date(timeIntervalSince1970: now - HookRunner.stateLifetime - 1)
        try FileManager.default.setAttributes([.modificationDate: aged], ofItemAtPath: old)
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: folder.file("hook-sessions/recent.json")))
        #expect(FileManager.default.fileExists(atPath: folder.file("hook-sessions/\(RecordedPayloads.sid).json")))
    }
}
