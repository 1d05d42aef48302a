import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import Testing

/// A store whose commits each wait for the test's verdict (pass or fail), announcing their writes as
/// they begin; commits that pass go to an in-memory store.
final class GatedStore: Store {
    let committed = InMemoryStore()
    /// Each commit's writes, as it begins.
    let begun = Inbox<[StoreWrite]>()
    private let verdicts = Inbox<Bool>()

    func load() async throws(StoreError) -> StoreContents { try await committed.load() }

    func commit(_ writes: [StoreWrite]) async throws(StoreError) {
        begun.yield(writes)
        let isPassed: Bool
        do { isPassed = try await verdicts.next("the test's verdict on a commit") ?? false } catch {
            throw StoreError(operation: "commit", message: "no verdict: \(error)")
        }
        guard isPassed else { throw StoreError(operation: "commit", message: "injected failure") }
        try await committed.commit(writes)
    }

    func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] { [] }

    /// Lets the waiting (or next) commit through, or fails it.
    func decide(pass: Bool) { verdicts.yield(pass) }
}

/// Session changes that arrive while a commit is under way are committed together, and answered only then.
@Suite struct GroupCommitTests {
    static func report(_ title: String) -> SessionReport { SessionReport(title: title, host: "h", busy: true) }

    /// A service on a gated store whose first group (session "a") is committing, with `sids` queued behind it.
    static func serviceWithQueuedGroup(_ sids: [SessionID]) async throws
        -> (ControlPlaneService, GatedStore, first: Task<SessionListing, any Error>, queued: [Task<SessionListing, any Error>])
    {
        let store = GatedStore()
        let service = ControlPlaneService(.init(
            store: store, gateway: ScriptedPushGateway(), decisionLog: InMemoryDecisionLog(), clock: ManualClock()))
        try await service.start()
        let first = Task { try await service.putSession("a", Self.report("a")) }
        #expect(try await store.begun.next("the first group's commit") == [.putSession("a", Self.report("a"))])
        let queued = sids.map { sid in Task { try await service.putSession(sid, Self.report(sid.rawValue)) } }
        try await bounded("\(sids.count) changes queued behind the commit") {
            await service.waitForQueuedSessionChanges(sids.count)
        }
        return (service, store, first, queued)
    }

    @Test("Changes queued behind a commit go to the store as one group, each answered after it", .timeLimit(.minutes(1)))
    func queuedChangesCommitTogether() async throws {
        let (service, store, first, queued) = try await Self.serviceWithQueuedGroup(["b", "c", "d"])
        store.decide(pass: true)
        #expect(try await bounded("the first answer") { try await first.value }.report == Self.report("a"))
        let second = try #require(try await store.begun.next("the second group's commit"))
        #expect(Set(second) == Set(["b", "c", "d"].map { StoreWrite.putSession($0, Self.report($0.rawValue)) }))
        store.decide(pass: true)
        for (task, sid) in zip(queued, ["b", "c", "d"]) {
            let answer = try await bounded("the answer for \(sid)") { try await task.value }
            #expect(answer.sid == SessionID(sid) && answer.report == Self.report(sid))
        }
        #expect(store.committed.commitCount == 2)
        #expect(try await store.committed.load().sessions.keys.sorted() == ["a", "b", "c", "d"])
        #expect(await service.sessions().map(\.sid) == ["a", "b", "c", "d"])
    }

    @Test("A failed group commit fails every request in it, changes nothing, and loses nothing acknowledged",
          .timeLimit(.minutes(1)))
    func failedGroupFailsEveryMember() async throws {
        let (service, store, first, queued) = try await Self.serviceWithQueuedGroup(["b", "c"])
        store.decide(pass: true)
        _ = try await bounded("the first answer") { try await first.value }
        _ = try await store.begun.next("the second group's commit")
        store.decide(pass: false)
        for task in queued {
            let result = try await bounded("a failed answer") { await task.result }
            guard case .failure(let error as ServiceError) = result, case .store(let storeError) = error else {
                Issue.record("expected the store's error, got \(result)")
                continue
            }
            #expect(storeError.message == "injected failure")
        }
        // The acknowledged "a" is stored and listed; nothing of the failed group is, in memory or on disk.
        #expect(try await store.committed.load().sessions.keys.sorted() == ["a"])
        #expect(await service.sessions().map(\.sid) == ["a"])
        // The service goes on: the next change commits alone.
        let next = Task { try await service.putSession("b", Self.report("b again")) }
        #expect(try await store.begun.next("the next commit") == [.putSession("b", Self.report("b again"))])
        store.decide(pass: true)
        #expect(try await bounded("the next answer") { try await next.value }.report == Self.report("b again"))
    }

    @Test("A refused change fails alone; the rest of its group commits")
    func refusedChangeFailsAlone() async throws {
        let (service, store, first, queued) = try await Self.serviceWithQueuedGroup(["b"])
        let patch = Task {
            try await service.patchSession("missing") { current throws(InputError) in current }
        }
        try await bounded("the patch queued too") { await service.waitForQueuedSessionChanges(2) }
        store.decide(pass: true)
        _ = try await bounded("the first answer") { try await first.value }
        #expect(try await store.begun.next("the second group's commit") == [.putSession("b", Self.report("b"))])
        store.decide(pass: true)
        _ = try await bounded("b's answer") { try await queued[0].value }
        let refused = try await bounded("the patch's answer") { await patch.result }
        guard case .failure(let error as ServiceError) = refused, case .notFound = error else {
            Issue.record("expected a 404 for the unknown session, got \(refused)")
            return
        }
    }

    @Test("A session changed several times in a group is written once, with its last report, in its first place",
          .timeLimit(.minutes(1)))
    func repeatedSessionWrittenOnce() async throws {
        let (_, store, first, queued) = try await Self.serviceWithQueuedGroup(["b", "c", "b"])
        store.decide(pass: true)
        _ = try await bounded("the first answer") { try await first.value }
        // (The queued tasks may reach the queue in any order.)
        let second = try #require(try await store.begun.next("the second group's commit"))
        #expect(second.count == 2)
        #expect(Set(second) == [.putSession("b", Self.report("b")), .putSession("c", Self.report("c"))])
        store.decide(pass: true)
        for task in queued { _ = try await bounded("an answer") { try await task.value } }
        #expect(try await store.committed.load().sessions.count == 3)
    }

    @Test("Each change in a group sees the ones queued before it: a patch, a numbered report, a late resend",
          .timeLimit(.minutes(1)))
    func groupMembersSeeEarlierMembers() async throws {
        let (service, store, first, queued) = try await Self.serviceWithQueuedGroup(["b"])
        let patched = Task {
            try await service.patchSession("b") { current throws(InputError) in
                var next = current
                next.title = "b patched"
                return next
            }
        }
        try await bounded("the patch queued") { await service.waitForQueuedSessionChanges(2) }
        let numbered = Task { try await service.putSession("b", Self.report("b five"), seq: 5) }
        try await bounded("report 5 queued") { await service.waitForQueuedSessionChanges(3) }
        let late = Task { try await service.putSession("b", Self.report("b three"), seq: 3) }
        try await bounded("report 3 queued") { await service.waitForQueuedSessionChanges(4) }
        store.decide(pass: true)
        _ = try await bounded("the first answer") { try await first.value }
        var patchedReport = Self.report("b")
        patchedReport.title = "b patched"
        // One transaction: the session's row is written once, with the last report the group left.
        #expect(try await store.begun.next("the second group's commit") == [.putSession("b", Self.report("b five"))])
        store.decide(pass: true)
        #expect(try await bounded("b's answer") { try await queued[0].value }.report == Self.report("b"))
        #expect(try await bounded("the patch's answer") { try await patched.value }.report == patchedReport)
        #expect(try await bounded("report 5's answer") { try await numbered.value }.report == Self.report("b five"))
        // The late resend changed nothing and is answered with the session as the group left it.
        #expect(try await bounded("report 3's answer") { try await late.value }.report == Self.report("b five"))
        #expect(try await store.committed.load().sessions["b"] == Self.report("b five"))
    }
}
