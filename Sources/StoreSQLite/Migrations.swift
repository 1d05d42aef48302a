import ControlPlane

/// The schema, as named migrations applied in order and recorded in `lfg_migrations`.
/// Append only: a shipped migration is never edited.
enum Migrations {
    static let all: [(name: String, sql: String)] = [
        (
            "001_initial",
            """
            CREATE TABLE sessions (sid TEXT PRIMARY KEY NOT NULL, report TEXT NOT NULL);
            CREATE TABLE hosts (host TEXT PRIMARY KEY NOT NULL, last_seen REAL NOT NULL, ttl_seconds REAL NOT NULL);
            CREATE TABLE devices (
                device_id TEXT PRIMARY KEY NOT NULL, profile TEXT NOT NULL, card TEXT, veto TEXT,
                veto_logged INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE tokens (
                device_id TEXT NOT NULL REFERENCES devices(device_id) ON DELETE CASCADE,
                kind TEXT NOT NULL, env TEXT NOT NULL, hex TEXT NOT NULL, registered_at REAL NOT NULL,
                position INTEGER NOT NULL, PRIMARY KEY (device_id, kind, hex));
            CREATE TABLE since (sid TEXT PRIMARY KEY NOT NULL, state TEXT NOT NULL, since REAL NOT NULL);
            CREATE TABLE card_history (
                id INTEGER PRIMARY KEY AUTOINCREMENT, device_id TEXT NOT NULL, started_at REAL NOT NULL,
                origin TEXT NOT NULL, adopted_at REAL, ended_at REAL, end_reason TEXT);
            CREATE INDEX card_history_by_device ON card_history (device_id, id);
            """
        ),
        (
            "002_questions",
            """
            CREATE TABLE questions (
                id TEXT PRIMARY KEY NOT NULL, sid TEXT NOT NULL, state TEXT NOT NULL, created_at REAL NOT NULL,
                question TEXT NOT NULL);
            """
        ),
        (
            "003_broadcast_channels",
            """
            ALTER TABLE devices ADD COLUMN channel TEXT;
            ALTER TABLE devices ADD COLUMN retiring_card TEXT;
            CREATE TABLE retired_channels (
                channel_id TEXT PRIMARY KEY NOT NULL, env TEXT NOT NULL, device_id TEXT NOT NULL,
                created_at REAL NOT NULL, position INTEGER NOT NULL);
            """
        ),
        (
            // A channel a card was ended on is kept until APNs can no longer hold that `end` (channel rotation).
            "004_retired_channel_hold",
            """
            ALTER TABLE retired_channels ADD COLUMN hold_until REAL;
            """
        ),
        (
            // Paired devices (issue 16): the credential's hash only, never the secret.
            "005_device_credentials",
            """
            CREATE TABLE device_credentials (
                id TEXT PRIMARY KEY NOT NULL, secret_hash TEXT NOT NULL, name TEXT NOT NULL, device_id TEXT,
                created_at REAL NOT NULL, revoked_at REAL);
            """
        ),
    ]

    /// Applies every migration not yet recorded, each in its own transaction.
    static func migrate(_ connection: SQLiteConnection, now: Double) throws(StoreError) {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS lfg_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at REAL NOT NULL)")
        var applied = Set<String>()
        try connection.statement("SELECT name FROM lfg_migrations").run { row in applied.insert(row.text(0)) }
        for migration in all where !applied.contains(migration.name) {
            try connection.transaction { () throws(StoreError) in
                try connection.execute(migration.sql)
                try connection.statement("INSERT INTO lfg_migrations (name, applied_at) VALUES (?1, ?2)")
                    .run([.text(migration.name), .real(now)])
            }
        }
    }

    /// The names of the applied migrations, in order.
    static func applied(_ connection: SQLiteConnection) throws(StoreError) -> [String] {
        var names: [String] = []
        try connection.statement("SELECT name FROM lfg_migrations ORDER BY name").run { row in names.append(row.text(0)) }
        return names
    }
}
