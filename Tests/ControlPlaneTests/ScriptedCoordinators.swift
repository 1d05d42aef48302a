import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Synchronization
import Testing

/// A service of the owner's over an in-memory store, coordinated by `coordinator` through a
/// ``LeaseDirector`` on `clock` (the instance's lease rounds), both running until `stop()`.
struct CoordinatedWorld {
    let service: ControlPlaneService
    let gateway: ScriptedPushGateway
    let director: LeaseDirector
    let leases: InstanceLeases
    private let loops: [Task<Void, Never>]

    init(
        _ coordinator: any FleetCoordinator, clock: ManualClock, wallClock: WallClock = ManualTime().wallClock,
        leaseTTL: Double = 3
    ) async throws {
        let leases = InstanceLeases()
        let gateway = ScriptedPushGateway.answeringEverything(status: 200)
        var dependencies = ControlPlaneService.Dependencies(
            store: InMemoryStore(), gateway: gateway,
            decisionLog: InMemoryDecisionLog(), wallClock: wallClock, clock: clock, tickInterval: .seconds(60))
        dependencies.coordinator = AccountCoordinator(account: .owner, shared: coordinator, leases: leases)
        dependencies.leaseTTL = leaseTTL
        let service = ControlPlaneService(dependencies)
        try await service.start()
        let director = LeaseDirector(
            coordinator: coordinator, leases: leases, accounts: AccountDirectory(owner: service), ttl: leaseTTL,
            interval: .seconds(1), clock: clock, wallClock: wallClock)
        self.service = service
        self.gateway = gateway
        self.director = director
        self.leases = leases
        loops = [Task { await service.run() }, Task { await director.run() }]
    }

    func stop() { for loop in loops { loop.cancel() } }
}

/// Answers for the parts of ``FleetCoordinator`` a test did not script: an instance alone, holding nothing,
/// with nothing queued and nothing changed. A fake overrides what its test is about.
class QuietCoordinator: FleetCoordinator, @unchecked Sendable {
    // @unchecked: no stored state here; subclasses keep theirs behind a Mutex.
    let instance = InstanceID("test")

    func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        LeaseRound(held: [], gained: [], liveInstances: 1, fairShare: 0)
    }
    func claimNew(_ device: LeasedDevice, ttl: Double) async throws(StoreError) -> Bool { false }
    func releaseAll() async throws(StoreError) {}
    func isKnown(_ device: LeasedDevice) async throws(StoreError) -> Bool { false }
    func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices {
        Issue.record("unexpected load of \(ids.sorted()) of \(account)")
        return TakenOverDevices()
    }
    func readDevices(account: AccountID, _ selection: DeviceSelection, limit: Int) async throws(StoreError)
        -> StoredDevices
    {
        Issue.record("unexpected read of \(selection) of \(account)")
        return StoredDevices()
    }
    func fleetRevision(account: AccountID) async throws(StoreError) -> Int64 { 0 }
    func fleetRevisions() async throws(StoreError) -> [AccountID: Int64] { [:] }
    func loadFleet(account: AccountID) async throws(StoreError) -> (contents: StoreContents, revision: Int64) {
        (StoreContents(), 0)
    }
    func loadFleetChanges(account: AccountID, since revision: Int64) async throws(StoreError) -> FleetChanges? {
        FleetChanges(revision: max(revision, 0))
    }
    func post(_ events: [DeviceInboxEvent], account: AccountID) async throws(StoreError) {
        Issue.record("unexpected post of \(events) for \(account)")
    }
    func takeInbox(for devices: Set<DeviceID>, account: AccountID) async throws(StoreError) -> [InboxEntry] { [] }
    func deleteInbox(_ ids: [Int64]) async throws(StoreError) {}
    func notices() -> AsyncStream<CoordinationNotice> { AsyncStream { _ in } }
}
