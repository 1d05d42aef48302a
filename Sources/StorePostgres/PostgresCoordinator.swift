import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import StoreSQL

/// Several `lfg serve` instances on one PostgreSQL database (contract 8.4): device leases in a table
/// claimed with `FOR UPDATE SKIP LOCKED`, expiring on the database's clock; device writes queued in
/// `device_inbox` for the owner; LISTEN/NOTIFY to wake instances, with the lease round as the fallback.
///
/// Its own connection, so lease rounds never queue behind the store's commits (a slow commit must not
/// cost an instance its leases), and a ``PostgresListener`` with a third.
public actor PostgresCoordinator: FleetCoordinator {
    public nonisolated let instance: InstanceID
    private let connection: PostgresConnection
    private let listener: PostgresListener
    private let channels: CoordinationChannels

    /// Connects to the database of `store` (same URL and schema; the store has migrated it).
    public init(
        store: PostgresStore, instance: InstanceID, reportProblem: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(StoreError) {
        self.instance = instance
        let options = "-c search_path=\(store.schema)"
        connection = try PostgresConnection(url: store.url, options: options)
        channels = CoordinationChannels(schema: store.schema)
        listener = PostgresListener(url: store.url, options: options, schema: store.schema, reportProblem: reportProblem)
    }

    public nonisolated func notices() -> AsyncStream<CoordinationNotice> { listener.notices }

    /// Stops listening (the thread closes its connection within a poll period).
    public nonisolated func shutdown() { listener.stop() }

    public func leaseRound(ttl: Double, releasing: Set<DeviceID>) throws(StoreError) -> LeaseRound {
        let me = SQLValue.text(instance.rawValue)
        return try connection.transaction { () throws(StoreError) in
            try connection.run(
                "INSERT INTO lfg_instances (instance_id, alive_until) VALUES (?1, clock_timestamp() + make_interval(secs => ?2)) "
                    + "ON CONFLICT (instance_id) DO UPDATE SET alive_until = excluded.alive_until",
                [me, .real(ttl)])
            for deviceId in releasing.sorted() {
                try connection.run(
                    "UPDATE device_leases SET owner = NULL, expires_at = '-infinity' WHERE device_id = ?1 AND owner = ?2",
                    [.text(deviceId.rawValue), me])
            }
            // Still ours (even if just expired): nobody else took it, so nobody else drove it meanwhile.
            var held = Set<DeviceID>()
            try connection.run(
                "UPDATE device_leases SET expires_at = clock_timestamp() + make_interval(secs => ?2) WHERE owner = ?1 "
                    + "RETURNING device_id",
                [me, .real(ttl)]
            ) { row in held.insert(DeviceID(row.text(0))) }
            var live = 1
            var devices = 0
            var revision: Int64 = 0
            try connection.run(
                "SELECT (SELECT count(*) FROM lfg_instances WHERE alive_until > clock_timestamp()), "
                    + "(SELECT count(*) FROM device_leases), (SELECT value FROM fleet_revision WHERE id = 1)", []
            ) { row in
                live = max(1, Int(row.integer(0)))
                devices = Int(row.integer(1))
                revision = row.integer(2)
            }
            let fairShare = (devices + live - 1) / live
            var gained = Set<DeviceID>()
            if held.count < fairShare {
                try connection.run(
                    """
                    WITH free AS (
                        SELECT device_id FROM device_leases WHERE owner IS NULL OR expires_at < clock_timestamp()
                        ORDER BY device_id LIMIT ?3 FOR UPDATE SKIP LOCKED)
                    UPDATE device_leases AS lease SET owner = ?1, expires_at = clock_timestamp() + make_interval(secs => ?2),
                        epoch = lease.epoch + 1
                    FROM free WHERE lease.device_id = free.device_id RETURNING lease.device_id
                    """,
                    [me, .real(ttl), .integer(Int64(fairShare - held.count))]
                ) { row in gained.insert(DeviceID(row.text(0))) }
            }
            return LeaseRound(
                held: held.union(gained), gained: gained, fleetRevision: revision, liveInstances: live,
                fairShare: fairShare)
        }
    }

    public func claimNew(_ deviceId: DeviceID, ttl: Double) throws(StoreError) -> Bool {
        var claimed = false
        try connection.run(
            "INSERT INTO device_leases (device_id, owner, expires_at, epoch) "
                + "VALUES (?1, ?2, clock_timestamp() + make_interval(secs => ?3), 1) ON CONFLICT (device_id) DO NOTHING "
                + "RETURNING device_id",
            [.text(deviceId.rawValue), .text(instance.rawValue), .real(ttl)]
        ) { _ in claimed = true }
        return claimed
    }

    public func releaseAll() throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try connection.run(
                "UPDATE device_leases SET owner = NULL, expires_at = '-infinity' WHERE owner = ?1", [.text(instance.rawValue)])
            try connection.run("DELETE FROM lfg_instances WHERE instance_id = ?1", [.text(instance.rawValue)])
        }
    }

    public func loadDevices(_ ids: Set<DeviceID>) throws(StoreError) -> [DeviceID: DeviceRecord] {
        try connection.transaction { () throws(StoreError) in
            var records: [DeviceID: DeviceRecord] = [:]
            for deviceId in ids.sorted() { records[deviceId] = try StoreTables.loadDevice(connection, deviceId) }
            return records
        }
    }

    public func loadFleet() throws(StoreError) -> (contents: StoreContents, revision: Int64) {
        try connection.transaction { () throws(StoreError) in
            // One snapshot: the revision read is the one these rows carry.
            try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            var revision: Int64 = 0
            try connection.run("SELECT value FROM fleet_revision WHERE id = 1", []) { row in revision = row.integer(0) }
            return (try StoreTables.loadShared(connection), revision)
        }
    }

    public func post(_ events: [DeviceInboxEvent]) throws(StoreError) {
        guard !events.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for event in events {
                let json: String
                do { json = String(decoding: try WireJSON.encode(event), as: UTF8.self) } catch {
                    throw StoreError(operation: "encode inbox event", message: "\(error)")
                }
                try connection.run(
                    "INSERT INTO device_inbox (device_id, event) VALUES (?1, ?2)", [.text(event.deviceId.rawValue), .text(json)])
                // A device no instance has held yet gets its lease row: the next round gives it an owner.
                try connection.run(
                    "INSERT INTO device_leases (device_id) VALUES (?1) ON CONFLICT (device_id) DO NOTHING",
                    [.text(event.deviceId.rawValue)])
            }
            for deviceId in Set(events.map(\.deviceId)).sorted() {
                try connection.run("SELECT pg_notify(?1, ?2)", [.text(channels.inbox), .text(deviceId.rawValue)])
            }
        }
    }

    public func takeInbox(for devices: Set<DeviceID>) throws(StoreError) -> [InboxEntry] {
        guard !devices.isEmpty else { return [] }
        var entries: [InboxEntry] = []
        let decoder = JSONDecoder()
        // One query for the lot: the inbox is usually empty, and a round must stay cheap at 10,000 devices.
        var undecodable: [Int64] = []
        try connection.run("SELECT id, device_id, event FROM device_inbox ORDER BY id", []) { row in
            guard devices.contains(DeviceID(row.text(1))) else { return }
            if let event = try? decoder.decode(DeviceInboxEvent.self, from: Data(row.text(2).utf8)) {
                entries.append(InboxEntry(id: row.integer(0), event: event))
            } else {
                undecodable.append(row.integer(0))
            }
        }
        if !undecodable.isEmpty {
            throw StoreError(
                operation: "read device inbox", message: "entries \(undecodable) are unreadable; delete them from device_inbox")
        }
        return entries
    }

    public func deleteInbox(_ ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for id in ids { try connection.run("DELETE FROM device_inbox WHERE id = ?1", [.integer(id)]) }
        }
    }
}
