import ControlPlane
import FleetCore
import Foundation
import StoreSQL

/// The store in `$LFG_HOME/lfg.sqlite`: one connection owned by this actor, WAL mode, named migrations,
/// and every ``commit(_:)`` one transaction committed before it returns. The tables and their mapping
/// are ``StoreTables``' (shared with the PostgreSQL store). Every account's rows live here; each account
/// reaches its own through ``AccountStore/scoped(to:)``.
///
/// A default actor, so under `lfg serve` its calls run on the HTTP event loop's thread, unlike the
/// PostgreSQL store's (``BlockingCallExecutor``), on purpose: SQLite runs in the process and never waits on
/// a network or another process (`lfg serve` holds the file exclusively), and in WAL mode with
/// `synchronous=NORMAL` a commit does not sync the disk. A group commit of ~50 PUTs held the loop ~90 us
/// (bench/ingest.sh load), while a thread of its own cost ~2 us of server CPU per PUT more (25 against 23,
/// six paired runs: the hop there and back, and smaller groups).
public actor SQLiteStore: AccountStore {
    private let connection: SQLiteConnection
    public nonisolated let path: String

    /// Opens (creating and migrating) the database at `path`.
    ///
    /// - Parameter isExclusive: hold the file for this store's life (SQLite's exclusive locking mode):
    ///   fewer system calls per commit, and no other connection or process can read or write the file
    ///   meanwhile (not even the `sqlite3` shell). For `lfg serve`, which holds the home's lock anyway.
    public init(path: String, now: UnixTime = WallClock.system.now, isExclusive: Bool = false) throws(StoreError) {
        self.path = path
        connection = try SQLiteConnection(path: path, isExclusive: isExclusive)
        try StoreMigrator.migrate(connection, SQLiteMigrations.all, now: now)
    }

    /// The names of the applied migrations, in order.
    public func appliedMigrations() throws(StoreError) -> [String] { try StoreMigrator.applied(connection) }

    public func load(account: AccountID) throws(StoreError) -> StoreContents {
        try StoreTables.load(connection, account: account)
    }

    public func commit(_ writes: [StoreWrite], account: AccountID) throws(StoreError) {
        guard !writes.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in try StoreTables.apply(writes, account: account, to: connection) }
    }

    public func history(account: AccountID, deviceId: DeviceID?, limit: Int) throws(StoreError) -> [CardHistoryRecord] {
        try StoreTables.history(connection, account: account, deviceId: deviceId, limit: limit)
    }

    public func accounts() throws(StoreError) -> [AccountRecord] { try AccountTable.load(connection) }

    public func putAccount(_ record: AccountRecord) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in try AccountTable.put(record, connection) }
    }

    public func addAccount(_ record: AccountRecord) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) in try AccountTable.add(record, connection) }
    }
}
