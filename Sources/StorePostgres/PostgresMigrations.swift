import StoreSQL

/// PostgreSQL's schema: the same named migrations as SQLite's (`SQLiteMigrations`), in the same order and
/// with the same meaning, written in PostgreSQL's types (`DOUBLE PRECISION` for SQLite's `REAL`, which
/// in PostgreSQL would be 4 bytes; `BIGSERIAL` for `AUTOINCREMENT`). Append only.
public enum PostgresMigrations {
    public static let all: [StoreMigration] = [
        StoreMigration(
            "001_initial",
            """
            CREATE TABLE sessions (sid TEXT PRIMARY KEY NOT NULL, report TEXT NOT NULL);
            CREATE TABLE hosts (
                host TEXT PRIMARY KEY NOT NULL, last_seen DOUBLE PRECISION NOT NULL, ttl_seconds DOUBLE PRECISION NOT NULL);
            CREATE TABLE devices (
                device_id TEXT PRIMARY KEY NOT NULL, profile TEXT NOT NULL, card TEXT, veto TEXT,
                veto_logged INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE tokens (
                device_id TEXT NOT NULL REFERENCES devices(device_id) ON DELETE CASCADE,
                kind TEXT NOT NULL, env TEXT NOT NULL, hex TEXT NOT NULL, registered_at DOUBLE PRECISION NOT NULL,
                position INTEGER NOT NULL, PRIMARY KEY (device_id, kind, hex));
            CREATE TABLE since (sid TEXT PRIMARY KEY NOT NULL, state TEXT NOT NULL, since DOUBLE PRECISION NOT NULL);
            CREATE TABLE card_history (
                id BIGSERIAL PRIMARY KEY, device_id TEXT NOT NULL, started_at DOUBLE PRECISION NOT NULL,
                origin TEXT NOT NULL, adopted_at DOUBLE PRECISION, ended_at DOUBLE PRECISION, end_reason TEXT);
            CREATE INDEX card_history_by_device ON card_history (device_id, id);
            """
        ),
        StoreMigration(
            "002_questions",
            """
            CREATE TABLE questions (
                id TEXT PRIMARY KEY NOT NULL, sid TEXT NOT NULL, state TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL, question TEXT NOT NULL);
            """
        ),
        StoreMigration(
            "003_broadcast_channels",
            """
            ALTER TABLE devices ADD COLUMN channel TEXT;
            ALTER TABLE devices ADD COLUMN retiring_card TEXT;
            CREATE TABLE retired_channels (
                channel_id TEXT PRIMARY KEY NOT NULL, env TEXT NOT NULL, device_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL, position INTEGER NOT NULL);
            """
        ),
        StoreMigration(
            "004_retired_channel_hold",
            """
            ALTER TABLE retired_channels ADD COLUMN hold_until DOUBLE PRECISION;
            """
        ),
    ]
}
