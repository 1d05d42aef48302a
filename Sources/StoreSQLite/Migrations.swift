import StoreSQL

/// SQLite's schema, as named migrations (``StoreMigrator`` applies and records them in `lfg_migrations`).
/// Append only: a shipped migration is never edited. PostgreSQL's list (StorePostgres) has the same
/// names in the same order with the same meaning; a test holds the two lists to that.
public enum SQLiteMigrations {
    public static let all: [StoreMigration] = [
        StoreMigration(
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
        StoreMigration(
            "002_questions",
            """
            CREATE TABLE questions (
                id TEXT PRIMARY KEY NOT NULL, sid TEXT NOT NULL, state TEXT NOT NULL, created_at REAL NOT NULL,
                question TEXT NOT NULL);
            """
        ),
        StoreMigration(
            "003_broadcast_channels",
            """
            ALTER TABLE devices ADD COLUMN channel TEXT;
            ALTER TABLE devices ADD COLUMN retiring_card TEXT;
            CREATE TABLE retired_channels (
                channel_id TEXT PRIMARY KEY NOT NULL, env TEXT NOT NULL, device_id TEXT NOT NULL,
                created_at REAL NOT NULL, position INTEGER NOT NULL);
            """
        ),
        StoreMigration(
            // A channel a card was ended on is kept until APNs can no longer hold that `end` (channel rotation).
            "004_retired_channel_hold",
            """
            ALTER TABLE retired_channels ADD COLUMN hold_until REAL;
            """
        ),
    ]
}
