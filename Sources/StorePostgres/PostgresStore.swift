import ControlPlane
import FleetCore
import Foundation
import StoreSQL

/// The store on a PostgreSQL database (`LFG_DATABASE_URL`): one connection owned by this actor, the
/// named migrations of ``PostgresMigrations``, the tables and mapping of ``StoreTables`` (shared with
/// SQLite), and every ``commit(_:)`` one transaction whose COMMIT has returned before it does.
public actor PostgresStore: AccountStore {
    /// libpq blocks its caller for each round trip: this actor runs on a thread of its own, never on the
    /// HTTP event loop (``BlockingCallExecutor``).
    private let executor = BlockingCallExecutor(name: "lfg-postgres-store")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let connection: PostgresConnection
    /// The schema holding the tables (`public` unless one was given).
    public nonisolated let schema: String

    /// Connects to `url`, creating `schema` if needed, and applies the migrations not yet recorded.
    ///
    /// Several instances may start at once: migrations run under a transaction-scoped advisory lock,
    /// so each is applied exactly once.
    /// - Parameter schema: lower-case letters, digits and `_` (tests give each run its own).
    /// - Parameters:
    ///   - instance: this process among those sharing the database: its commits are logged under it, so
    ///     its ``PostgresCoordinator`` skips its own changes when reading the others'.
    ///   - changeLogRevisions: how many fleet revisions `fleet_changes` keeps (an instance further behind
    ///     reloads the whole fleet).
    public init(
        url: String, schema: String = "public", instance: InstanceID = .unique(),
        changeLogRevisions: Int64 = PostgresStore.defaultChangeLogRevisions, now: UnixTime = Date().timeIntervalSince1970
    ) throws(StoreError) {
        guard Self.isPlainIdentifier(schema) else {
            throw StoreError(
                operation: "open schema", message: "'\(schema)' is not a plain schema name (a-z, 0-9, _; starts with a letter)")
        }
        self.schema = schema
        self.url = url
        self.instance = instance
        self.changeLogRevisions = changeLogRevisions
        connection = try PostgresConnection(url: url, options: "-c search_path=\(schema)")
        try Self.migrate(connection, schema: schema, now: now)
    }

    /// The names of the applied migrations, in order (the coordination ones included).
    public func appliedMigrations() throws(StoreError) -> [String] { try StoreMigrator.applied(connection) }

    /// The URL and schema this store uses (for a ``PostgresCoordinator`` on the same database).
    public nonisolated let url: String
    public nonisolated let instance: InstanceID
    private let changeLogRevisions: Int64
    /// Fleet revisions `fleet_changes` keeps by default: at a report a second, almost three hours.
    public static let defaultChangeLogRevisions: Int64 = 10_000

    public func load(account: AccountID) throws(StoreError) -> StoreContents {
        // One snapshot: another instance committing between the table reads cannot tear the picture.
        try connection.snapshot { () throws(StoreError) in
            return try StoreTables.load(connection, account: account)
        }
    }

    public func commit(_ writes: [StoreWrite], account: AccountID) throws(StoreError) {
        guard !writes.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            try SharedWriteRules.apply(writes, account: account, on: connection)
            let tableWrites = writes.filter(\.isTableWrite)
            if let batch = SessionRowBatch.split(tableWrites) {
                try SessionRowBatch.put(batch.sessions, account: account, on: connection)
                try StoreTables.apply(batch.others, account: account, to: connection)
            } else {
                try StoreTables.apply(tableWrites, account: account, to: connection)
            }
            try Self.noteShared(
                writes, account: account, writer: instance, keeping: changeLogRevisions, on: connection,
                channels: CoordinationChannels(schema: schema))
        }
    }

    /// Tells every instance sharing the database that `account`'s fleet changed, in one round trip of the
    /// commit's transaction: the account's revision moves on (so a reader that missed the notification
    /// sees it moved), what changed is logged under it (``FleetChangeLog``; revisions no instance can need
    /// any more are forgotten), and the NOTIFY is delivered when the transaction commits, never before.
    /// Each account has its own revision row, so accounts' commits never wait for each other's.
    static func noteShared(
        _ writes: [StoreWrite], account: AccountID, writer: InstanceID, keeping revisions: Int64,
        on connection: PostgresConnection, channels: CoordinationChannels
    ) throws(StoreError) {
        let changes = FleetChangeLog.entries(of: writes)
        guard !changes.isEmpty else { return }
        try connection.run(
            """
            WITH bumped AS (
                INSERT INTO fleet_revision (account_id, value) VALUES (?6, 1)
                ON CONFLICT (account_id) DO UPDATE SET value = fleet_revision.value + 1 RETURNING value),
            logged AS (
                INSERT INTO fleet_changes (account_id, revision, writer, kind, key)
                SELECT ?6, bumped.value, ?1, change.kind, change.key
                FROM bumped, unnest(?2::text[], ?3::text[]) AS change(kind, key)),
            pruned AS (DELETE FROM fleet_changes WHERE account_id = ?6 AND revision <= (SELECT value FROM bumped) - ?4)
            SELECT pg_notify(?5, ?6 || ' ' || (SELECT value FROM bumped)::text)
            """,
            [
                .text(writer.rawValue), .text(FleetChangeLog.arrayLiteral(changes.map(\.kind))),
                .text(FleetChangeLog.arrayLiteral(changes.map(\.key))), .integer(revisions),
                .text(channels.fleet), .text(account.rawValue),
            ])
    }

    public func history(account: AccountID, deviceId: DeviceID?, limit: Int) throws(StoreError) -> [CardHistoryRecord] {
        try StoreTables.history(connection, account: account, deviceId: deviceId, limit: limit)
    }

    public func accounts() throws(StoreError) -> [AccountRecord] { try AccountTable.load(connection) }

    public func putAccount(_ record: AccountRecord) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try AccountTable.put(record, connection)
            if record.isRevoked {
                // Revoked: no instance drives its devices any more, and nothing queued for them is applied.
                let account: [SQLValue] = [.text(record.id.rawValue)]
                try connection.run("DELETE FROM device_leases WHERE account_id = ?1", account)
                try connection.run("DELETE FROM device_inbox WHERE account_id = ?1", account)
            }
            try noteAccountsChanged(record.id)
        }
    }

    public func addAccount(_ record: AccountRecord) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) in
            guard try AccountTable.add(record, connection) else { return false }
            try noteAccountsChanged(record.id)
            return true
        }
    }

    /// Wakes the other instances to open or stop `account` (delivered when the transaction commits).
    private func noteAccountsChanged(_ account: AccountID) throws(StoreError) {
        try connection.run(
            "SELECT pg_notify(?1, ?2)", [.text(CoordinationChannels(schema: schema).accounts), .text(account.rawValue)])
    }

    static func migrate(_ connection: PostgresConnection, schema: String, now: UnixTime) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            // Held to the end of this transaction: a second instance waits, then finds them recorded.
            try connection.run("SELECT pg_advisory_xact_lock(?1)", [.integer(Self.migrationLockKey)])
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
            try StoreMigrator.migrate(
                connection, PostgresMigrations.all + PostgresMigrations.coordination, now: now, inTransaction: true)
        }
    }

    /// The advisory lock key that serializes migrations ("lfgmigr" in ASCII).
    static let migrationLockKey: Int64 = 0x6c66_676d_6967_72

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 63 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}

extension StoreWrite {
    /// Whether ``StoreTables`` applies it (report numbers are kept by ``SharedWriteRules``).
    fileprivate var isTableWrite: Bool {
        if case .takeReportSeq = self { return false }
        return true
    }
}
