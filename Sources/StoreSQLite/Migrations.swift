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
        StoreMigration(
            // Paired devices (issue 16): the credential's hash only, never the secret.
            "005_device_credentials",
            """
            CREATE TABLE device_credentials (
                id TEXT PRIMARY KEY NOT NULL, secret_hash TEXT NOT NULL, name TEXT NOT NULL, device_id TEXT,
                created_at REAL NOT NULL, revoked_at REAL);
            """
        ),
        StoreMigration(
            // Accounts (contract 8.4): every row gains its account; rows written before are the owner's.
            // SQLite cannot change a primary key in place: each table is renamed, made anew, copied, dropped.
            "006_accounts",
            """
            CREATE TABLE accounts (
                name TEXT PRIMARY KEY NOT NULL, token_id TEXT NOT NULL UNIQUE, secret_hash TEXT NOT NULL,
                created_at REAL NOT NULL, revoked_at REAL);
            ALTER TABLE sessions RENAME TO sessions_005;
            ALTER TABLE hosts RENAME TO hosts_005;
            ALTER TABLE tokens RENAME TO tokens_005;
            ALTER TABLE devices RENAME TO devices_005;
            ALTER TABLE since RENAME TO since_005;
            ALTER TABLE card_history RENAME TO card_history_005;
            ALTER TABLE questions RENAME TO questions_005;
            ALTER TABLE retired_channels RENAME TO retired_channels_005;
            ALTER TABLE device_credentials RENAME TO device_credentials_005;
            CREATE TABLE sessions (
                account_id TEXT NOT NULL, sid TEXT NOT NULL, report TEXT NOT NULL, PRIMARY KEY (account_id, sid));
            CREATE TABLE hosts (
                account_id TEXT NOT NULL, host TEXT NOT NULL, last_seen REAL NOT NULL, ttl_seconds REAL NOT NULL,
                PRIMARY KEY (account_id, host));
            CREATE TABLE devices (
                account_id TEXT NOT NULL, device_id TEXT NOT NULL, profile TEXT NOT NULL, card TEXT, veto TEXT,
                veto_logged INTEGER NOT NULL DEFAULT 0, channel TEXT, retiring_card TEXT,
                PRIMARY KEY (account_id, device_id));
            CREATE TABLE tokens (
                account_id TEXT NOT NULL, device_id TEXT NOT NULL, kind TEXT NOT NULL, env TEXT NOT NULL,
                hex TEXT NOT NULL, registered_at REAL NOT NULL, position INTEGER NOT NULL,
                PRIMARY KEY (account_id, device_id, kind, hex),
                FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id) ON DELETE CASCADE);
            CREATE TABLE since (
                account_id TEXT NOT NULL, sid TEXT NOT NULL, state TEXT NOT NULL, since REAL NOT NULL,
                PRIMARY KEY (account_id, sid));
            CREATE TABLE card_history (
                id INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL, device_id TEXT NOT NULL,
                started_at REAL NOT NULL, origin TEXT NOT NULL, adopted_at REAL, ended_at REAL, end_reason TEXT);
            CREATE TABLE questions (
                account_id TEXT NOT NULL, id TEXT NOT NULL, sid TEXT NOT NULL, state TEXT NOT NULL,
                created_at REAL NOT NULL, question TEXT NOT NULL, PRIMARY KEY (account_id, id));
            CREATE TABLE retired_channels (
                account_id TEXT NOT NULL, channel_id TEXT NOT NULL, env TEXT NOT NULL, device_id TEXT NOT NULL,
                created_at REAL NOT NULL, position INTEGER NOT NULL, hold_until REAL,
                PRIMARY KEY (account_id, channel_id));
            CREATE TABLE device_credentials (
                account_id TEXT NOT NULL, id TEXT NOT NULL, secret_hash TEXT NOT NULL, name TEXT NOT NULL,
                device_id TEXT, created_at REAL NOT NULL, revoked_at REAL, PRIMARY KEY (account_id, id));
            INSERT INTO sessions SELECT 'owner', sid, report FROM sessions_005;
            INSERT INTO hosts SELECT 'owner', host, last_seen, ttl_seconds FROM hosts_005;
            INSERT INTO devices
                SELECT 'owner', device_id, profile, card, veto, veto_logged, channel, retiring_card FROM devices_005;
            INSERT INTO tokens SELECT 'owner', device_id, kind, env, hex, registered_at, position FROM tokens_005;
            INSERT INTO since SELECT 'owner', sid, state, since FROM since_005;
            INSERT INTO card_history
                SELECT id, 'owner', device_id, started_at, origin, adopted_at, ended_at, end_reason FROM card_history_005;
            INSERT INTO questions SELECT 'owner', id, sid, state, created_at, question FROM questions_005;
            INSERT INTO retired_channels
                SELECT 'owner', channel_id, env, device_id, created_at, position, hold_until FROM retired_channels_005;
            INSERT INTO device_credentials
                SELECT 'owner', id, secret_hash, name, device_id, created_at, revoked_at FROM device_credentials_005;
            DROP TABLE sessions_005;
            DROP TABLE hosts_005;
            DROP TABLE tokens_005;
            DROP TABLE devices_005;
            DROP TABLE since_005;
            DROP TABLE card_history_005;
            DROP TABLE questions_005;
            DROP TABLE retired_channels_005;
            DROP TABLE device_credentials_005;
            CREATE INDEX card_history_by_device ON card_history (account_id, device_id, id);
            """
        ),
    ]
}
