import ControlPlane
import ControlPlaneTesting
import FleetCore
import StorePostgres
import Testing

/// Instances sharing a database read only what the others changed (`fleet_changes`), not the whole fleet.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct FleetChangesTests {
    @Test("A coordinator reads the sessions and hosts the other instances changed since a revision, as they are now; not its own")
    func readsOthersChangesSinceARevision() async throws {
        let url = try #require(PostgresTestDatabase.url)
        let schema = PostgresTestDatabase.freshSchema()
        let mine = try PostgresStore(url: url, schema: schema, instance: InstanceID("mine"))
        let other = try PostgresStore(url: url, schema: schema, instance: InstanceID("other"))
        let coordinator = try PostgresCoordinator(store: mine)
        defer { coordinator.shutdown() }

        let start = try #require(try await coordinator.loadFleetChanges(account: .owner, since: 0))
        #expect(start == FleetChanges(revision: 0))
        try await other.commit([.putSession("s1", SessionReport(title: "One", busy: true))])
        try await mine.commit([.putSession("mine-1", SessionReport(title: "Mine"))])
        try await other.commit([.putSession("s2", SessionReport(title: "Two"))])
        try await other.commit([.putSession("s1", SessionReport(title: "One again", busy: true))])
        try await other.commit([.putHost("laptop", HostHeartbeat(lastSeen: 5, ttlSeconds: 30))])
        try await other.commit([.deleteSession("s2")])

        let changes = try #require(try await coordinator.loadFleetChanges(account: .owner, since: 0))
        #expect(changes.revision == 6)
        // Each session as it is now (s1's second report, s2 gone); this instance's own commit left out.
        #expect(changes.sessions == ["s1": SessionReport(title: "One again", busy: true), "s2": SessionReport?.none])
        #expect(changes.hosts == ["laptop": HostHeartbeat(lastSeen: 5, ttlSeconds: 30)])
        // From a later revision, only what came after it.
        let later = try #require(try await coordinator.loadFleetChanges(account: .owner, since: 4))
        #expect(later.sessions == ["s2": SessionReport?.none])
        #expect(later.hosts == ["laptop": HostHeartbeat(lastSeen: 5, ttlSeconds: 30)])
        #expect(try await coordinator.loadFleetChanges(account: .owner, since: 6) == FleetChanges(revision: 6))
        // Device writes are not the shared fleet: no revision, nothing logged.
        try await other.commit([.putDevice("phone", DeviceRecord())])
        #expect(try await coordinator.loadFleetChanges(account: .owner, since: 6) == FleetChanges(revision: 6))
    }

    @Test("A reader further behind than the change log reaches is told to load the whole fleet")
    func tooFarBehindLoadsEverything() async throws {
        let url = try #require(PostgresTestDatabase.url)
        let schema = PostgresTestDatabase.freshSchema()
        // A log that keeps the last 2 revisions only.
        let other = try PostgresStore(url: url, schema: schema, instance: InstanceID("other"), changeLogRevisions: 2)
        let coordinator = try PostgresCoordinator(store: try PostgresStore(url: url, schema: schema, instance: InstanceID("mine")))
        defer { coordinator.shutdown() }
        for index in 1...4 { try await other.commit([.putSession(SessionID("s\(index)"), SessionReport(title: "\(index)"))]) }
        #expect(try await coordinator.loadFleetChanges(account: .owner, since: 1) == nil)
        let recent = try #require(try await coordinator.loadFleetChanges(account: .owner, since: 2))
        #expect(recent.sessions == ["s3": SessionReport(title: "3"), "s4": SessionReport(title: "4")])
    }
}
