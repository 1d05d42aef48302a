import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Synchronization
import Testing

/// Several instances on one database: what another instance took reaches this one as if reported here.
@Suite struct FleetReloadTests {
    @Test("A session another instance keeps hearing from is heard here too, even when its report did not change")
    func unchangedReportElsewhereCountsAsHeard() async throws {
        let time = ManualTime()
        let coordinator = ScriptedFleetCoordinator()
        let world = try await CoordinatedWorld(coordinator, clock: ManualClock(), wallClock: time.wallClock)
        defer { world.stop() }
        let service = world.service
        let report = SessionReport(title: "Build", busy: true)

        coordinator.announce(FleetChanges(revision: 1, sessions: ["s1": report]))
        try await Self.waitUntil(service, "s1 listed, heard at 1000") { $0?.heardAt == 1_000 }
        // Nine minutes on, the agent reports the same state again, to another instance.
        time.advance(9 * 60)
        coordinator.announce(FleetChanges(revision: 2, sessions: ["s1": report]))
        try await Self.waitUntil(service, "s1 heard again at 1540") { $0?.heardAt == 1_540 }
        // Two more minutes: 11 since its first report, 2 since its last: it is not silent.
        time.advance(2 * 60)
        #expect(await service.sessions().first { $0.sid == "s1" }?.displayState == .working)
    }

    static func waitUntil(
        _ service: ControlPlaneService, _ what: String, _ condition: @escaping @Sendable (SessionListing?) -> Bool
    ) async throws {
        try await bounded(what, within: .seconds(10)) {
            while await !condition(service.sessions().first { $0.sid == "s1" }) { await Task.yield() }
        }
    }
}

/// A coordinator whose other instances are the test: ``announce(_:)`` makes their next changes to the
/// owner's fleet readable and sends the notification; it holds no devices.
final class ScriptedFleetCoordinator: QuietCoordinator, @unchecked Sendable {
    // @unchecked: every stored property is Sendable (a Mutex, a stream and its continuation).
    private let changes = Mutex<[FleetChanges]>([])
    private let stream = AsyncStream.makeStream(of: CoordinationNotice.self)

    func announce(_ next: FleetChanges) {
        changes.withLock { $0.append(next) }
        stream.continuation.yield(.fleetChanged(.owner))
    }

    override func loadFleetChanges(account: AccountID, since revision: Int64) async throws(StoreError) -> FleetChanges? {
        changes.withLock { pending in
            let due = pending.filter { $0.revision > revision }
            guard let last = due.last else { return FleetChanges(revision: max(revision, 0)) }
            var merged = FleetChanges(revision: last.revision)
            for change in due { merged.sessions.merge(change.sessions) { _, new in new } }
            return merged
        }
    }

    override func loadFleet(account: AccountID) async throws(StoreError) -> (contents: StoreContents, revision: Int64) {
        guard let all = try await loadFleetChanges(account: account, since: -1) else { return (StoreContents(), 0) }
        return (StoreContents(sessions: all.sessions.compactMapValues { $0 }), all.revision)
    }

    override func notices() -> AsyncStream<CoordinationNotice> { stream.stream }
}
