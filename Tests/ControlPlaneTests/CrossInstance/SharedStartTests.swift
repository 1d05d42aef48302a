import ControlPlane
import ControlPlaneTesting
import FleetCore
import StorePostgres
import Testing

/// An account's start on a shared database: the fleet every instance reads, in one snapshot with its revision.
@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct SharedStartTests {
    @Test("A shared account's start reads its fleet once, in one snapshot with its revision: 8 round trips, devices left to their leases")
    func startReadsTheFleetOnce() async throws {
        let store = try PostgresTestDatabase.makeStore()
        let devices = (0..<20).map { StoreWrite.putDevice(DeviceID("d\($0)"), StoreSuiteTests.record) }
        let since: SinceMap = ["s1": SinceEntry(state: .working, since: 5)]
        try await store.commit(devices + [.putSession("s1", SessionReport(title: "Build")), .putSince(since)])
        let coordinator = try PostgresCoordinator(store: store)
        defer { coordinator.shutdown() }
        let revision = try await coordinator.loadFleet(account: .owner).revision  // its statements prepared
        var dependencies = ControlPlaneService.Dependencies(
            store: store, gateway: ScriptedPushGateway.answeringEverything(status: 200), decisionLog: InMemoryDecisionLog())
        dependencies.coordinator = AccountCoordinator(account: .owner, shared: coordinator, leases: InstanceLeases())
        let service = ControlPlaneService(dependencies)

        let before = PostgresRoundTrips.total
        try await service.start()
        // BEGIN (with the snapshot's level), the revision, sessions, hosts, questions, credentials, since, COMMIT.
        #expect(PostgresRoundTrips.total - before == 8)

        #expect(await service.loadedFleetRevision == revision)
        #expect(await service.sessions().map(\.sid) == ["s1"])
        #expect(await service.watcherSnapshot.since == since)
        #expect(await service.watcherSnapshot.boxes.count == 0, "devices arrive as their leases are won")
    }
}
