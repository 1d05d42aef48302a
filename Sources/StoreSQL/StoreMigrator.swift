import ControlPlane

/// One named schema step. Append only: a shipped migration is never edited; each dialect has its own
/// list, with the same names in the same order meaning the same tables and columns.
public struct StoreMigration: Sendable, Hashable {
    public var name: String
    public var sql: String

    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}

/// Applies named migrations in order, each in its own transaction, and records them in `lfg_migrations`.
public enum StoreMigrator {
    /// Applies every migration of `migrations` not yet recorded.
    /// - Parameter inTransaction: the caller already holds a transaction (PostgreSQL, whose DDL is
    ///   transactional, runs them all in one under a lock); otherwise each runs in its own.
    public static func migrate(
        _ database: some SQLDatabase, _ migrations: [StoreMigration], now: Double, inTransaction: Bool = false
    ) throws(StoreError) {
        try database.execute(
            "CREATE TABLE IF NOT EXISTS lfg_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
        let applied = Set(try self.applied(database))
        for migration in migrations where !applied.contains(migration.name) {
            let step = { () throws(StoreError) in
                try database.execute(migration.sql)
                try database.run(
                    "INSERT INTO lfg_migrations (name, applied_at) VALUES (?1, ?2)", [.text(migration.name), .real(now)])
            }
            if inTransaction { try step() } else { try database.transaction(step) }
        }
    }

    /// The names of the applied migrations, in order.
    public static func applied(_ database: some SQLDatabase) throws(StoreError) -> [String] {
        var names: [String] = []
        try database.run("SELECT name FROM lfg_migrations ORDER BY name", []) { row in names.append(row.text(0)) }
        return names
    }
}
