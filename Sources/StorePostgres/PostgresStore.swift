import ControlPlane
import FleetCore
import Foundation
import StoreSQL

/// The store on a PostgreSQL database (`LFG_DATABASE_URL`): one connection owned by this actor, the
/// named migrations of ``PostgresMigrations``, the tables and mapping of ``StoreTables`` (shared with
/// SQLite), and every ``commit(_:)`` one transaction whose COMMIT has returned before it does.
public actor PostgresStore: AccountStore {
    private let connection: PostgresConnection
    /// The schema holding the tables (`public` unless one was given).
    public nonisolated let schema: String

    /// Connects to `url`, creating `schema` if needed, and applies the migrations not yet recorded.
    ///
    /// Several instances may start at once: migrations run under a transaction-scoped advisory lock,
    /// so each is applied exactly once.
    /// - Parameter schema: lower-case letters, digits and `_` (tests give each run its own).
    public init(url: String, schema: String = "public", now: UnixTime = Date().timeIntervalSince1970) throws(StoreError) {
        guard Self.isPlainIdentifier(schema) else {
            throw StoreError(
                operation: "open schema", message: "'\(schema)' is not a plain schema name (a-z, 0-9, _; starts with a letter)")
        }
        self.schema = schema
        self.url = url
        connection = try PostgresConnection(url: url, options: "-c search_path=\(schema)")
        try Self.migrate(connection, schema: schema, now: now)
    }

    /// The names of the applied migrations, in order (the coordination ones included).
    public func appliedMigrations() throws(StoreError) -> [String] { try StoreMigrator.applied(connection) }

    /// The URL and schema this store uses (for a ``PostgresCoordinator`` on the same database).
    public nonisolated let url: String

    public func load(account: AccountID) throws(StoreError) -> StoreContents {
        // One snapshot: another instance committing between the table reads cannot tear the picture.
        try connection.transaction { () throws(StoreError) in
            try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return try StoreTables.load(connection, account: account)
        }
    }

    public func commit(_ writes: [StoreWrite], account: AccountID) throws(StoreError) {
        guard !writes.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            try StoreTables.apply(writes, account: account, to: connection)
            // Instances coordinate the owner's fleet only (accounts are not served on a shared database yet).
            if account == .owner {
                try Self.noteShared(writes, on: connection, channels: CoordinationChannels(schema: schema))
            }
        }
    }

    /// Tells every instance sharing the database that the shared fleet changed: the revision moves in the
    /// same transaction (so a reader that missed the notification sees it moved), and the NOTIFY is
    /// delivered when the transaction commits, never before.
    static func noteShared(
        _ writes: [StoreWrite], on connection: PostgresConnection, channels: CoordinationChannels
    ) throws(StoreError) {
        guard StoreTables.changesShared(writes) else { return }
        try connection.run("UPDATE fleet_revision SET value = value + 1 WHERE id = 1")
        try connection.run("SELECT pg_notify(?1, '')", [.text(channels.fleet)])
    }

    public func history(account: AccountID, deviceId: DeviceID?, limit: Int) throws(StoreError) -> [CardHistoryRecord] {
        try StoreTables.history(connection, account: account, deviceId: deviceId, limit: limit)
    }

    public func accounts() throws(StoreError) -> [AccountRecord] { try AccountTable.load(connection) }

    public func putAccount(_ record: AccountRecord) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in try AccountTable.put(record, connection) }
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
