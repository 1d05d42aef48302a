import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import StoreSQL

/// Several `lfg serve` instances on one PostgreSQL database (contract 8.4), for every account on it:
/// device leases in a table claimed with `FOR UPDATE SKIP LOCKED`, expiring on the database's clock;
/// device writes queued in `device_inbox` for the owner; LISTEN/NOTIFY to wake instances, with the lease
/// round as the fallback.
///
/// Leases have a connection of their own (``PostgresLeases``), so a renewal never queues behind the
/// store's commits or this coordinator's loads (loading thousands of devices taken over must not cost
/// an instance its leases); loads and the inbox use a second one, and a ``PostgresListener`` a third.
public actor PostgresCoordinator: FleetCoordinator {
    /// libpq blocks its caller for each round trip: this actor runs on a thread of its own, never on the
    /// HTTP event loop (``BlockingCallExecutor``).
    private let executor = BlockingCallExecutor(name: "lfg-postgres-coordinator")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public nonisolated let instance: InstanceID
    private let connection: PostgresConnection
    private let leases: PostgresLeases
    private let listener: PostgresListener
    private let channels: CoordinationChannels

    /// Connects to the database of `store` (same URL and schema; the store has migrated it), as the
    /// store's instance.
    public init(store: PostgresStore, reportProblem: @escaping @Sendable (String) -> Void = { _ in }) throws(StoreError) {
        instance = store.instance
        let options = "-c search_path=\(store.schema)"
        connection = try PostgresConnection(url: store.url, options: options)
        leases = try PostgresLeases(instance: instance, connection: PostgresConnection(url: store.url, options: options))
        channels = CoordinationChannels(schema: store.schema)
        listener = PostgresListener(url: store.url, options: options, schema: store.schema, reportProblem: reportProblem)
    }

    public nonisolated func notices() -> AsyncStream<CoordinationNotice> { listener.notices }

    /// Whether this instance hears the others' notifications now (its LISTEN is in place). Until then it
    /// learns of their changes at its lease rounds only.
    public nonisolated var isListening: Bool { listener.isListening }

    /// Stops listening (the thread closes its connection within a poll period).
    public nonisolated func shutdown() { listener.stop() }

    public nonisolated func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        try await leases.round(ttl: ttl, releasing: releasing)
    }

    public nonisolated func claimNew(_ device: LeasedDevice, ttl: Double) async throws(StoreError) -> Bool {
        try await leases.claimNew(device, ttl: ttl)
    }

    public nonisolated func releaseAll() async throws(StoreError) { try await leases.releaseAll() }

    public func isKnown(_ device: LeasedDevice) throws(StoreError) -> Bool {
        var isKnown = false
        try connection.run(
            "SELECT 1 FROM device_leases WHERE account_id = ?1 AND device_id = ?2",
            [.text(device.account.rawValue), .text(device.device.rawValue)]
        ) { _ in isKnown = true }
        return isKnown
    }

    /// Reads `ids` a batch at a time: one statement for a batch's devices and tokens, one for their
    /// retired channels (an instance taking 10,000 devices over makes dozens of round trips, not 20,000).
    public func loadDevices(_ ids: Set<DeviceID>, account: AccountID) throws(StoreError) -> TakenOverDevices {
        try connection.snapshot { () throws(StoreError) in
            var loaded = TakenOverDevices()
            for batch in ids.sorted().chunked(into: Self.loadBatch) {
                let names: [SQLValue] = [.text(FleetChangeLog.arrayLiteral(batch.map(\.rawValue)))]
                let records = try StoreTables.loadDevices(
                    connection, account: account, where: "device_id = ANY(?2::text[])", names)
                loaded.records.merge(records) { _, new in new }
                loaded.retiredChannels += try StoreTables.loadRetiredChannels(
                    connection, account: account, where: "device_id = ANY(?2::text[])", names)
            }
            return loaded
        }
    }

    /// Lists the selected lease rows (every stored device has one) with their live owners, then reads the
    /// records of the first `limit` a batch at a time, in one read-only snapshot.
    public func readDevices(account: AccountID, _ selection: DeviceSelection, limit: Int) throws(StoreError)
        -> StoredDevices
    {
        try connection.snapshot { () throws(StoreError) in
            var selected: [DeviceID] = []
            var reading = StoredDevices()
            var filter = ""
            var values: [SQLValue] = [.text(account.rawValue)]
            if case .among(let devices) = selection {
                filter = " AND device_id = ANY(?2::text[])"
                values.append(.text(FleetChangeLog.arrayLiteral(devices.sorted().map(\.rawValue))))
            }
            try connection.run(
                "SELECT device_id, CASE WHEN expires_at > clock_timestamp() THEN owner END FROM device_leases "
                    + "WHERE account_id = ?1\(filter) ORDER BY device_id", values
            ) { row in
                let device = DeviceID(row.text(0))
                if case .allBut(let excluded) = selection, excluded.contains(device) { return }
                guard selected.count < limit else {
                    reading.notRead += 1
                    return
                }
                selected.append(device)
                if let owner = row.optionalText(1) { reading.drivers[device] = InstanceID(owner) }
            }
            for batch in selected.chunked(into: Self.loadBatch) {
                let names: [SQLValue] = [.text(FleetChangeLog.arrayLiteral(batch.map(\.rawValue)))]
                let records = try StoreTables.loadDevices(
                    connection, account: account, where: "device_id = ANY(?2::text[])", names)
                reading.records.merge(records) { _, new in new }
            }
            // A lease row with no record yet (a write queued for a device never registered) lists nothing.
            reading.drivers = reading.drivers.filter { reading.records[$0.key] != nil }
            return reading
        }
    }

    /// Device ids per statement when loading devices taken over.
    static let loadBatch = 1000

    public func fleetRevision(account: AccountID) throws(StoreError) -> Int64 {
        var revision: Int64 = 0
        try connection.run(
            "SELECT coalesce((SELECT value FROM fleet_revision WHERE account_id = ?1), 0)", [.text(account.rawValue)]
        ) { row in revision = row.integer(0) }
        return revision
    }

    public func fleetRevisions() throws(StoreError) -> [AccountID: Int64] {
        var revisions: [AccountID: Int64] = [:]
        try connection.run("SELECT account_id, value FROM fleet_revision", []) { row in
            revisions[AccountID(row.text(0))] = row.integer(1)
        }
        return revisions
    }

    public func loadFleet(account: AccountID) throws(StoreError) -> (contents: StoreContents, revision: Int64) {
        try connection.snapshot { () throws(StoreError) in
            // One snapshot: the revision read is the one these rows carry.
            let revision = try fleetRevision(account: account)
            var contents = try StoreTables.loadShared(connection, account: account)
            contents.since = try StoreTables.loadSince(connection, account: account)
            return (contents, revision)
        }
    }

    public func loadFleetChanges(account: AccountID, since revision: Int64) throws(StoreError) -> FleetChanges? {
        try connection.snapshot { () throws(StoreError) in
            // One snapshot: the revision read is the one the rows read carry.
            var current: Int64 = 0
            var oldest: Int64?
            try connection.run(
                "SELECT coalesce((SELECT value FROM fleet_revision WHERE account_id = ?1), 0), "
                    + "(SELECT min(revision) FROM fleet_changes WHERE account_id = ?1)", [.text(account.rawValue)]
            ) { row in
                current = row.integer(0)
                oldest = row.isNull(1) ? nil : row.integer(1)
            }
            var changes = FleetChanges(revision: current)
            guard current > revision else { return changes }
            // Complete only while every revision after `revision` is still logged.
            guard let oldest, oldest <= revision + 1 else { return nil }
            let others: [SQLValue] = [.integer(revision), .text(instance.rawValue), .text(account.rawValue)]
            let decoder = JSONDecoder()
            try connection.run(
                "SELECT changed.key, sessions.report FROM (SELECT DISTINCT key FROM fleet_changes "
                    + "WHERE account_id = ?3 AND revision > ?1 AND writer <> ?2 AND kind = 'session') AS changed "
                    + "LEFT JOIN sessions ON sessions.sid = changed.key AND sessions.account_id = ?3",
                others
            ) { row throws(StoreError) in
                let report = try row.optionalText(1).map { text throws(StoreError) in
                    do { return try decoder.decode(SessionReport.self, from: Data(text.utf8)) } catch {
                        throw StoreError(operation: "read session \(row.text(0))", message: "\(error)")
                    }
                }
                changes.sessions[SessionID(row.text(0))] = .some(report)
            }
            try connection.run(
                "SELECT changed.key, hosts.last_seen, hosts.ttl_seconds FROM (SELECT DISTINCT key FROM fleet_changes "
                    + "WHERE account_id = ?3 AND revision > ?1 AND writer <> ?2 AND kind = 'host') AS changed "
                    + "LEFT JOIN hosts ON hosts.host = changed.key AND hosts.account_id = ?3",
                others
            ) { row in
                changes.hosts[HostID(row.text(0))] =
                    row.isNull(1) ? .some(nil) : HostHeartbeat(lastSeen: row.real(1), ttlSeconds: row.real(2))
            }
            try connection.run(
                "SELECT changed.key, questions.question FROM (SELECT DISTINCT key FROM fleet_changes "
                    + "WHERE account_id = ?3 AND revision > ?1 AND writer <> ?2 AND kind = 'question') AS changed "
                    + "LEFT JOIN questions ON questions.id = changed.key AND questions.account_id = ?3",
                others
            ) { row throws(StoreError) in
                let question = try row.optionalText(1).map { text throws(StoreError) in
                    do { return try decoder.decode(Question.self, from: Data(text.utf8)) } catch {
                        throw StoreError(operation: "read question \(row.text(0))", message: "\(error)")
                    }
                }
                changes.questions[QuestionID(row.text(0))] = .some(question)
            }
            return changes
        }
    }

    public func post(_ events: [DeviceInboxEvent], account: AccountID) throws(StoreError) {
        guard !events.isEmpty else { return }
        let owner = SQLValue.text(account.rawValue)
        try connection.transaction { () throws(StoreError) in
            for event in events {
                let json: String
                do { json = String(decoding: try WireJSON.encode(event), as: UTF8.self) } catch {
                    throw StoreError(operation: "encode inbox event", message: "\(error)")
                }
                try connection.run(
                    "INSERT INTO device_inbox (account_id, device_id, event) VALUES (?1, ?2, ?3)",
                    [owner, .text(event.deviceId.rawValue), .text(json)])
                // A device no instance has held yet gets its lease row: the next round gives it an owner.
                try connection.run(
                    "INSERT INTO device_leases (account_id, device_id) VALUES (?1, ?2) "
                        + "ON CONFLICT (account_id, device_id) DO NOTHING",
                    [owner, .text(event.deviceId.rawValue)])
            }
            for deviceId in Set(events.map(\.deviceId)).sorted() {
                try connection.run(
                    "SELECT pg_notify(?1, ?2)",
                    [.text(channels.inbox), .text(CoordinationChannels.inboxPayload(LeasedDevice(account, deviceId)))])
            }
        }
    }

    public func takeInbox(for devices: Set<DeviceID>, account: AccountID) throws(StoreError) -> [InboxEntry] {
        guard !devices.isEmpty else { return [] }
        var entries: [InboxEntry] = []
        let decoder = JSONDecoder()
        // One query for the account's lot: its inbox is usually empty.
        var undecodable: [Int64] = []
        try connection.run(
            "SELECT id, device_id, event FROM device_inbox WHERE account_id = ?1 ORDER BY id", [.text(account.rawValue)]
        ) { row in
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
        try connection.run(
            "DELETE FROM device_inbox WHERE id = ANY(?1::bigint[])",
            [.text("{" + ids.map(String.init).joined(separator: ",") + "}")])
    }
}
