import FleetCore
import Foundation
import HookAdapter
import Testing

@Suite("Record first, deliver per session: nothing lost, delivered in order")
struct SpoolTests {
    static let down: @Sendable (SpooledReport) -> DeliveryOutcome = { _ in .failed(reason: "connection refused") }

    static func runner(
        _ folder: TemporaryFolder, _ delivery: RecordingReportDelivery, now: UnixTime = 1_000, token: String? = "t1"
    ) -> HookRunner {
        HookRunner(
            files: HookFiles(home: folder.url), delivery: delivery, tokenFingerprint: TokenFingerprint.of(token),
            wallClock: { now })
    }

    static func deadline() -> HookDeadline { HookDeadline(seconds: 5) }

    @Test("With the server down every event is recorded and reduced in order, then delivered in order once it is back")
    func downThenUp() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        for event in RecordedPayloads.wholeSession.prefix(8) {
            let summary = await runner.handle(event.payload, deadline: Self.deadline())
            #expect(summary.problem == nil && summary.recorded != nil)
        }
        let pending = runner.files.pendingReports()
        #expect(pending.count == 6)
        #expect(pending.map(\.seq) == [1, 2, 3, 4, 5, 6])
        // Each call tried the oldest report once and stopped at its failure, keeping the order.
        #expect(await delivery.attempts.allSatisfy { $0 == pending[0] })

        await delivery.setOutcome { _ in .delivered }
        let summary = await runner.handle(RecordedPayloads.permissionNotification, deadline: Self.deadline())
        #expect(summary.drain.delivered == 6)
        #expect(await delivery.delivered == pending)
        #expect(runner.files.pendingReports().isEmpty)
        #expect(runner.files.inbox.sessionKeys().isEmpty)
    }

    @Test("A new report waits behind older pending ones instead of overtaking them")
    func noOvertaking() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        await delivery.setOutcome { _ in .delivered }
        _ = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        let delivered = await delivery.delivered
        #expect(delivered.map(\.seq) == [1, 2])
        #expect(delivered.map(\.report.busy) == [false, true])
    }

    @Test("Another session's pending reports never hold this session back")
    func sessionsIndependent() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery { $0.sid == "stuck" ? .failed(reason: "HTTP 503") : .delivered }
        let runner = Self.runner(folder, delivery)
        _ = await runner.handle(#"{"session_id": "stuck", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        let other = await runner.handle(#"{"session_id": "free", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        #expect(other.drain.delivered == 1 && other.drain.stoppedBecause == nil)
        #expect(runner.files.pendingReports().map(\.sid) == ["stuck"])
    }

    @Test("A report the server refuses for good is dropped so it cannot block the rest")
    func rejectedIsDropped() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        await delivery.setOutcome { $0.seq == 1 ? .rejected(status: 400) : .delivered }
        let second = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(second.drain.rejected == 1 && second.drain.delivered == 1)
        #expect(await delivery.delivered.map(\.seq) == [2])
        #expect(runner.files.pendingReports().isEmpty)
    }

    @Test("A refused token keeps the reports and stops trying until the token changes")
    func unauthorizedKeepsUntilTokenChanges() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery { _ in DeliveryOutcome.forStatus(401) }
        let first = await Self.runner(folder, delivery, token: "bad").handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        #expect(first.drain.stoppedBecause == .unauthorized)
        let second = await Self.runner(folder, delivery, token: "bad").handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(second.drain.stoppedBecause == .unauthorized && second.drain.remaining == 2)
        #expect(await delivery.attempts.count == 1)
        await delivery.setOutcome { _ in .delivered }
        let fixed = await Self.runner(folder, delivery, token: "good").handle(RecordedPayloads.stop, deadline: Self.deadline())
        #expect(fixed.drain.delivered == 3)
        #expect(!FileManager.default.fileExists(atPath: folder.file("hook-refused-token")))
    }

    @Test("With no time left the event is still recorded and reduced; nothing is attempted")
    func outOfTime() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery()
        let runner = Self.runner(folder, delivery)
        let summary = await runner.handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 0))
        #expect(await delivery.attempts.isEmpty)
        #expect(summary.drain.remaining == 1)
        #expect(summary.drain.stoppedBecause == .outOfTime)
        #expect(runner.files.pendingReports().count == 1)
    }

    @Test("A hook that finds its session's turn taken leaves its event recorded and returns at once")
    func turnTakenLeavesRecorded() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery()
        let runner = Self.runner(folder, delivery)
        let key = HookFiles.key(for: RecordedPayloads.sid)
        let holder = try TurnHolder(folder.file("hook-sessions/\(key).lock"))
        let summary = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        #expect(summary.drain.stoppedBecause == .anotherProcessDelivers)
        #expect(await delivery.attempts.isEmpty)
        #expect(runner.files.unreducedEvents() == 1)
        holder.release()
        // Whoever delivers next takes it: here the next hook of the same session.
        let next = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(next.drain.delivered == 2)
        #expect(await delivery.delivered.map(\.seq) == [1, 2])
    }

    @Test("Bad input records nothing and says why")
    func badInput() async throws {
        let folder = try TemporaryFolder()
        let runner = Self.runner(folder, RecordingReportDelivery())
        let summary = await runner.handle("not json", deadline: Self.deadline())
        #expect(summary.problem?.contains("not JSON") == true)
        #expect(summary.recorded == nil)
        #expect(runner.files.inbox.sessionKeys().isEmpty)
    }

    @Test("A hook with time to spare delivers a session whose last hook ran out of time; a fresh one is left to its own hook")
    func helpsStranded() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery()
        let now = Date().timeIntervalSince1970
        let runner = Self.runner(folder, delivery, now: now)
        _ = await runner.handle(#"{"session_id": "left", "hook_event_name": "Stop"}"#, deadline: HookDeadline(seconds: 0))
        let fresh = await runner.handle(#"{"session_id": "other", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        #expect(fresh.helped.delivered == 0)
        let aged = Date(timeIntervalSince1970: now - SpoolDrainer.strandedAfter - 1)
        try FileManager.default.setAttributes([.modificationDate: aged], ofItemAtPath: runner.files.inbox.root.appendingPathComponent("left").path)
        let helper = await runner.handle(#"{"session_id": "third", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        #expect(helper.helped.delivered == 1)
        #expect(runner.files.pendingReports().isEmpty)
    }

    @Test("A damaged inbox entry is skipped and dropped; the events around it still go in order")
    func damagedEntry() async throws {
        let folder = try TemporaryFolder()
        let delivery = RecordingReportDelivery(outcome: Self.down)
        let runner = Self.runner(folder, delivery)
        let key = HookFiles.key(for: RecordedPayloads.sid)
        let holder = try TurnHolder(folder.file("hook-sessions/\(key).lock"))
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        try folder.write("hook-inbox/\(key)/00000000000000000001-0000000001.json", "{\"half")
        holder.release()
        await delivery.setOutcome { _ in .delivered }
        _ = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        #expect(await delivery.delivered.map(\.seq) == [1, 2])
        #expect(runner.files.inbox.sessionKeys().isEmpty)
    }

    @Test("Entries a killed deliverer reduced and saved but did not delete are never reduced twice")
    func takenNotTwice() async throws {
        let folder = try TemporaryFolder()
        let files = HookFiles(home: folder.url)
        let runner = Self.runner(folder, RecordingReportDelivery(outcome: Self.down))
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        let key = HookFiles.key(for: RecordedPayloads.sid)
        // What a process killed between saving the record and deleting the entry leaves behind.
        let entry = try files.inbox.record(Data(RecordedEvent(event: try HookEvent.decode(RecordedPayloads.userPromptSubmit), host: .local, recordedAt: 1).encoded().utf8), key: key, wallNanoseconds: 5)
        let store = RecordingReportDelivery()
        var record = files.loadRecord(key)
        record.reduce(try HookEvent.decode(RecordedPayloads.userPromptSubmit), host: .local)
        record.taken = [entry]
        try files.saveRecord(record, for: key)
        let result = await SpoolDrainer.drain(files, using: store, deadline: Self.deadline())
        #expect(result.delivered == 2)
        #expect(await store.delivered.map(\.seq) == [1, 2])
        #expect(files.inbox.sessionKeys().isEmpty)
    }

    @Test("The server's start-up drain delivers every session, and an earlier version's spool first")
    func serverDrain() async throws {
        let folder = try TemporaryFolder()
        let legacy = SpooledReport(sid: "old", report: SessionReport(title: "from the old spool"))
        try folder.write("hook-spool.jsonl", String(decoding: try JSONEncoder().encode(legacy), as: UTF8.self) + "\n{\"half\n")
        let runner = Self.runner(folder, RecordingReportDelivery(outcome: Self.down))
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        _ = await runner.handle(#"{"session_id": "b", "hook_event_name": "Stop"}"#, deadline: Self.deadline())
        let store = RecordingReportDelivery()
        let result = await SpoolDrainer.drain(HookFiles(home: folder.url), using: store, deadline: Self.deadline())
        #expect(result.delivered == 3 && result.remaining == 0)
        #expect(await store.delivered.first == legacy)
        #expect(Set(await store.delivered.map(\.sid)) == ["old", "b", SessionID(RecordedPayloads.sid)])
        #expect(!FileManager.default.fileExists(atPath: folder.file("hook-spool.jsonl")))
    }

    @Test("A session's undelivered reports past the limit shrink to its newest")
    func outboxLimit() async throws {
        let folder = try TemporaryFolder()
        let runner = Self.runner(folder, RecordingReportDelivery(outcome: Self.down))
        for index in 0...SessionRecord.outboxLimit {
            let payload = #"{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo \#(index)"}}"#
            _ = await runner.handle(payload, deadline: HookDeadline(seconds: 0))
        }
        let pending = runner.files.pendingReports()
        #expect(pending.count == 1)
        #expect(pending.first?.report.step == "Bash: echo \(SessionRecord.outboxLimit)")
        #expect(pending.first?.seq == SessionRecord.outboxLimit + 1)
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

    @Test("Every file the hook writes is 0600 and every folder 0700")
    func fileModes() async throws {
        let folder = try TemporaryFolder()
        let runner = Self.runner(folder, RecordingReportDelivery { _ in DeliveryOutcome.forStatus(401) })
        let key = HookFiles.key(for: RecordedPayloads.sid)
        let holder = try TurnHolder(folder.file("hook-sessions/\(key).lock"))
        _ = await runner.handle(RecordedPayloads.sessionStart, deadline: Self.deadline())
        holder.release()
        _ = await runner.handle(RecordedPayloads.userPromptSubmit, deadline: Self.deadline())
        _ = await Self.runner(folder, RecordingReportDelivery { _ in .timedOut(reason: "t") }, token: "other").handle(RecordedPayloads.stop, deadline: Self.deadline())
        let all = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        #expect(all.contains("hook-refused-token") && all.contains("hook-paused-until") && all.contains("hook-sessions/\(key).json"))
        for path in all {
            var info = stat()
            #expect(stat(folder.file(path), &info) == 0)
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            #expect(info.st_mode & 0o777 == (isFolder ? 0o700 : 0o600), "\(path)")
        }
    }

    @Test("A session start deletes the records of sessions untouched for 30 days, and keeps the rest")
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
