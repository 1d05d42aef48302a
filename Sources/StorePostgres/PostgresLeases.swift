import ControlPlane
import FleetCore
import StoreSQL

/// The device leases of one instance (``PostgresCoordinator``), on a connection used for nothing else:
/// a row per device in `device_leases`, claimed with `FOR UPDATE SKIP LOCKED` (instances claiming at
/// once skip each other's rows instead of waiting), expiring on the database's clock, so instances never
/// compare their own clocks.
actor PostgresLeases {
    let instance: InstanceID
    private let connection: PostgresConnection

    init(instance: InstanceID, connection: PostgresConnection) {
        self.instance = instance
        self.connection = connection
    }

    func round(ttl: Double, releasing: Set<DeviceID>) throws(StoreError) -> LeaseRound {
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

    func claimNew(_ deviceId: DeviceID, ttl: Double) throws(StoreError) -> Bool {
        var claimed = false
        try connection.run(
            "INSERT INTO device_leases (device_id, owner, expires_at, epoch) "
                + "VALUES (?1, ?2, clock_timestamp() + make_interval(secs => ?3), 1) ON CONFLICT (device_id) DO NOTHING "
                + "RETURNING device_id",
            [.text(deviceId.rawValue), .text(instance.rawValue), .real(ttl)]
        ) { _ in claimed = true }
        return claimed
    }

    func releaseAll() throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try connection.run(
                "UPDATE device_leases SET owner = NULL, expires_at = '-infinity' WHERE owner = ?1", [.text(instance.rawValue)])
            try connection.run("DELETE FROM lfg_instances WHERE instance_id = ?1", [.text(instance.rawValue)])
        }
    }
}
