import ControlPlane
import FleetCore
import StoreSQL

/// The device leases of one instance (``PostgresCoordinator``), on a connection used for nothing else:
/// a row per account's device in `device_leases`, claimed with `FOR UPDATE SKIP LOCKED` (instances
/// claiming at once skip each other's rows instead of waiting), expiring on the database's clock, so
/// instances never compare their own clocks. One round covers every account.
actor PostgresLeases {
    /// libpq blocks its caller for each round trip: this actor runs on a thread of its own, never on the
    /// HTTP event loop (``BlockingCallExecutor``).
    private let executor = BlockingCallExecutor(name: "lfg-postgres-leases")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let instance: InstanceID
    private let connection: PostgresConnection

    init(instance: InstanceID, connection: PostgresConnection) {
        self.instance = instance
        self.connection = connection
    }

    func round(ttl: Double, releasing: Set<LeasedDevice>) throws(StoreError) -> LeaseRound {
        let me = SQLValue.text(instance.rawValue)
        return try connection.transaction { () throws(StoreError) in
            try connection.run(
                "INSERT INTO lfg_instances (instance_id, alive_until) VALUES (?1, clock_timestamp() + make_interval(secs => ?2)) "
                    + "ON CONFLICT (instance_id) DO UPDATE SET alive_until = excluded.alive_until",
                [me, .real(ttl)])
            if !releasing.isEmpty {
                let released = releasing.sorted()
                try connection.run(
                    "UPDATE device_leases AS lease SET owner = NULL, expires_at = '-infinity' "
                        + "FROM unnest(?2::text[], ?3::text[]) AS released(account_id, device_id) "
                        + "WHERE lease.account_id = released.account_id AND lease.device_id = released.device_id "
                        + "AND lease.owner = ?1",
                    [me] + Self.arrays(released))
            }
            // Still ours (even if just expired): nobody else took it, so nobody else drove it meanwhile.
            var held = Set<LeasedDevice>()
            try connection.run(
                "UPDATE device_leases SET expires_at = clock_timestamp() + make_interval(secs => ?2) WHERE owner = ?1 "
                    + "RETURNING account_id, device_id",
                [me, .real(ttl)]
            ) { row in held.insert(LeasedDevice(AccountID(row.text(0)), DeviceID(row.text(1)))) }
            var live = 1
            var devices = 0
            var revisionSum: Int64 = 0
            var accountsStamp: Int64 = 0
            var inboxAccounts = Set<AccountID>()
            // One statement for every count a round needs (round trips per round are what the bench measures).
            try connection.run(
                """
                SELECT (SELECT count(*) FROM lfg_instances WHERE alive_until > clock_timestamp()),
                    (SELECT count(*) FROM device_leases),
                    (SELECT coalesce(sum(value), 0) FROM fleet_revision),
                    (SELECT count(*) + count(revoked_at) FROM accounts),
                    (SELECT coalesce(string_agg(DISTINCT inbox.account_id, ' '), '') FROM device_inbox AS inbox
                        JOIN device_leases AS lease
                        ON lease.account_id = inbox.account_id AND lease.device_id = inbox.device_id
                        WHERE lease.owner = ?1)
                """, [me]
            ) { row in
                live = max(1, Int(row.integer(0)))
                devices = Int(row.integer(1))
                revisionSum = row.integer(2)
                accountsStamp = row.integer(3)
                // Account names never hold a space (AccountID.validated).
                inboxAccounts = Set(row.text(4).split(separator: " ").map { AccountID(String($0)) })
            }
            let fairShare = (devices + live - 1) / live
            var gained = Set<LeasedDevice>()
            if held.count < fairShare {
                try connection.run(
                    """
                    WITH free AS (
                        SELECT account_id, device_id FROM device_leases WHERE owner IS NULL OR expires_at < clock_timestamp()
                        ORDER BY account_id, device_id LIMIT ?3 FOR UPDATE SKIP LOCKED)
                    UPDATE device_leases AS lease SET owner = ?1, expires_at = clock_timestamp() + make_interval(secs => ?2),
                        epoch = lease.epoch + 1
                    FROM free WHERE lease.account_id = free.account_id AND lease.device_id = free.device_id
                    RETURNING lease.account_id, lease.device_id
                    """,
                    [me, .real(ttl), .integer(Int64(fairShare - held.count))]
                ) { row in gained.insert(LeasedDevice(AccountID(row.text(0)), DeviceID(row.text(1)))) }
            }
            return LeaseRound(
                held: held.union(gained), gained: gained, fleetRevisionSum: revisionSum, accountsStamp: accountsStamp,
                inboxAccounts: inboxAccounts, liveInstances: live, fairShare: fairShare)
        }
    }

    func claimNew(_ device: LeasedDevice, ttl: Double) throws(StoreError) -> Bool {
        var claimed = false
        try connection.run(
            "INSERT INTO device_leases (account_id, device_id, owner, expires_at, epoch) "
                + "VALUES (?1, ?2, ?3, clock_timestamp() + make_interval(secs => ?4), 1) "
                + "ON CONFLICT (account_id, device_id) DO NOTHING RETURNING device_id",
            [.text(device.account.rawValue), .text(device.device.rawValue), .text(instance.rawValue), .real(ttl)]
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

    /// The accounts and the device ids of `devices` as two text arrays (bound as `?2::text[]`, `?3::text[]`).
    static func arrays(_ devices: [LeasedDevice]) -> [SQLValue] {
        [
            .text(FleetChangeLog.arrayLiteral(devices.map(\.account.rawValue))),
            .text(FleetChangeLog.arrayLiteral(devices.map(\.device.rawValue))),
        ]
    }
}
