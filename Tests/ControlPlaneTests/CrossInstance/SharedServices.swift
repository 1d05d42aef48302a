import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPTypes
import StorePostgres
import Synchronization

/// Several control planes in this process on one PostgreSQL schema, each with its own store connection,
/// coordinator (LISTEN/NOTIFY and leases), manual clock and router: "instances" a test calls by index.
/// Their clocks move only when the test says so, so a lease round (the fallback for a missed NOTIFY)
/// happens only when a test advances an instance's clock.
final class SharedServices: Sendable {
    struct Instance: Sendable {
        let service: ControlPlaneService
        let router: APIRouter
        let clock: ManualClock
        let coordinator: NoticeDroppingCoordinator
        let loop: Task<Void, Never>
    }

    static let leaseInterval = Duration.seconds(1)
    let instances: [Instance]
    let time = ManualTime()
    let url: String
    let schema: String

    /// - Parameter questionNotifier: instance `index`'s question pushes (nil: questions are never pushed).
    init(instances count: Int, questionNotifier: (Int) -> (any QuestionNotifier)? = { _ in nil }) async throws {
        guard let url = PostgresTestDatabase.url else { throw PostgresTestDatabase.Missing() }
        self.url = url
        schema = PostgresTestDatabase.freshSchema()
        var instances: [Instance] = []
        for index in 0..<count {
            let report: @Sendable (String) -> Void = { print("instance-\(index): \($0)") }
            let store = try PostgresStore(url: url, schema: schema, instance: InstanceID("instance-\(index)"))
            let coordinator = NoticeDroppingCoordinator(base: try PostgresCoordinator(store: store, reportProblem: report))
            let clock = ManualClock()
            let leases = InstanceLeases()
            var dependencies = ControlPlaneService.Dependencies(
                store: store, gateway: ScriptedPushGateway.answeringEverything(status: 200),
                decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock, clock: clock, tickInterval: .seconds(600),
                reportProblem: report, questionNotifier: questionNotifier(index))
            dependencies.coordinator = AccountCoordinator(account: .owner, shared: coordinator, leases: leases)
            let service = ControlPlaneService(dependencies)
            try await service.start()
            let director = LeaseDirector(
                coordinator: coordinator, leases: leases, accounts: AccountDirectory(owner: service),
                ttl: dependencies.leaseTTL, interval: Self.leaseInterval, clock: clock, wallClock: time.wallClock,
                reportProblem: report)
            let router = APIRouter(service: service, authenticator: Authenticator(token: ServiceHarness.token, loginCode: nil))
            let loop = Task {
                await withDiscardingTaskGroup { group in
                    group.addTask { await service.run() }
                    group.addTask { await director.run() }
                }
            }
            instances.append(Instance(service: service, router: router, clock: clock, coordinator: coordinator, loop: loop))
        }
        self.instances = instances
        // Each has read the fleet once (its first lease round's follow-up), so from here on only a
        // notification or a lease round the test runs makes an instance read the others' changes.
        for instance in instances {
            try await bounded("every instance's first fleet load, and its LISTEN in place") {
                while await instance.service.loadedFleetRevision < 0 || !instance.coordinator.base.isListening {
                    await Task.yield()
                }
            }
        }
    }

    /// Runs `body` on `count` instances, stopping them afterwards whatever happened.
    static func with(
        instances count: Int, questionNotifier: (Int) -> (any QuestionNotifier)? = { _ in nil },
        _ body: (SharedServices) async throws -> Void
    ) async throws {
        let world = try await SharedServices(instances: count, questionNotifier: questionNotifier)
        do { try await body(world) } catch {
            await world.stop()
            throw error
        }
        await world.stop()
    }

    func stop() async {
        for instance in instances {
            instance.loop.cancel()
            await instance.loop.value
            instance.coordinator.base.shutdown()
        }
    }

    /// Calls instance `index` through its router, as a client on the network would.
    @discardableResult
    func call(
        _ index: Int, _ method: String, _ path: String, _ body: String = "", headers: [String: String] = [:],
        query: [String: String] = [:]
    ) async -> ServiceHarness.Reply {
        var allHeaders = headers
        allHeaders["Authorization"] = "Bearer \(ServiceHarness.token)"
        if !body.isEmpty { allHeaders["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, path: path, query: query, headers: allHeaders, body: Data(body.utf8))
        let response = await instances[index].router.respond(to: request)
        return ServiceHarness.Reply(status: response.status, response: response)
    }

    /// Runs one lease round on instance `index` (the fallback poll) by moving its clock to the next one
    /// (its ``LeaseDirector`` sleeps `leaseInterval` between rounds).
    func leaseRound(_ index: Int) async throws {
        let clock = instances[index].clock
        try await clock.waitForSleeper(until: clock.now.advanced(by: Self.leaseInterval))
        clock.advance(by: Self.leaseInterval)
    }

    /// A fresh store on the same schema, to read what the database holds.
    func reader() throws -> PostgresStore { try PostgresStore(url: url, schema: schema, instance: InstanceID("reader")) }
}

/// A ``PostgresCoordinator`` whose notifications a test can suppress, one at a time (a NOTIFY lost while
/// the listening connection was down, or one dropped from a full buffer).
final class NoticeDroppingCoordinator: FleetCoordinator {
    let base: PostgresCoordinator
    /// Each notice dropped, as it is dropped.
    let dropped = Inbox<CoordinationNotice>()
    private let isArmed = Mutex(false)

    init(base: PostgresCoordinator) { self.base = base }

    /// The next `.fleetChanged` notice is dropped.
    func dropNextFleetChange() { isArmed.withLock { $0 = true } }

    func notices() -> AsyncStream<CoordinationNotice> {
        let upstream = base.notices()
        let (stream, continuation) = AsyncStream.makeStream(of: CoordinationNotice.self)
        let task = Task { [self] in
            for await notice in upstream {
                if case .fleetChanged = notice, takeArmed() { dropped.yield(notice) } else { continuation.yield(notice) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func takeArmed() -> Bool {
        isArmed.withLock { armed in
            defer { armed = false }
            return armed
        }
    }

    var instance: InstanceID { base.instance }
    func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        try await base.leaseRound(ttl: ttl, releasing: releasing)
    }
    func claimNew(_ device: LeasedDevice, ttl: Double) async throws(StoreError) -> Bool {
        try await base.claimNew(device, ttl: ttl)
    }
    func releaseAll() async throws(StoreError) { try await base.releaseAll() }
    func isKnown(_ device: LeasedDevice) async throws(StoreError) -> Bool { try await base.isKnown(device) }
    func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices {
        try await base.loadDevices(ids, account: account)
    }
    func readDevices(account: AccountID, _ selection: DeviceSelection, limit: Int) async throws(StoreError)
        -> StoredDevices
    {
        try await base.readDevices(account: account, selection, limit: limit)
    }
    func fleetRevision(account: AccountID) async throws(StoreError) -> Int64 { try await base.fleetRevision(account: account) }
    func fleetRevisions() async throws(StoreError) -> [AccountID: Int64] { try await base.fleetRevisions() }
    func loadFleet(account: AccountID) async throws(StoreError) -> (contents: StoreContents, revision: Int64) {
        try await base.loadFleet(account: account)
    }
    func loadFleetChanges(account: AccountID, since revision: Int64) async throws(StoreError) -> FleetChanges? {
        try await base.loadFleetChanges(account: account, since: revision)
    }
    func post(_ events: [DeviceInboxEvent], account: AccountID) async throws(StoreError) {
        try await base.post(events, account: account)
    }
    func takeInbox(for devices: Set<DeviceID>, account: AccountID) async throws(StoreError) -> [InboxEntry] {
        try await base.takeInbox(for: devices, account: account)
    }
    func deleteInbox(_ ids: [Int64]) async throws(StoreError) { try await base.deleteInbox(ids) }
}
