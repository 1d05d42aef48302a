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
        StoreMigration(
            "005_device_credentials",
            """
            CREATE TABLE device_credentials (
                id TEXT PRIMARY KEY NOT NULL, secret_hash TEXT NOT NULL, name TEXT NOT NULL, device_id TEXT,
                created_at DOUBLE PRECISION NOT NULL, revoked_at DOUBLE PRECISION);
            """
        ),
        StoreMigration(
            // Accounts (contract 8.4): every row gains its account; rows written before are the owner's.
            "006_accounts",
            """
            CREATE TABLE accounts (
                name TEXT PRIMARY KEY NOT NULL, token_id TEXT NOT NULL UNIQUE, secret_hash TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL, revoked_at DOUBLE PRECISION);
            ALTER TABLE tokens DROP CONSTRAINT tokens_device_id_fkey;
            ALTER TABLE sessions ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE hosts ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE devices ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE tokens ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE since ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE card_history ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE questions ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE retired_channels ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE device_credentials ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE sessions ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE hosts ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE devices ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE tokens ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE since ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE card_history ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE questions ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE retired_channels ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE device_credentials ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE sessions DROP CONSTRAINT sessions_pkey, ADD PRIMARY KEY (account_id, sid);
            ALTER TABLE hosts DROP CONSTRAINT hosts_pkey, ADD PRIMARY KEY (account_id, host);
            ALTER TABLE devices DROP CONSTRAINT devices_pkey, ADD PRIMARY KEY (account_id, device_id);
            ALTER TABLE tokens DROP CONSTRAINT tokens_pkey, ADD PRIMARY KEY (account_id, device_id, kind, hex);
            ALTER TABLE since DROP CONSTRAINT since_pkey, ADD PRIMARY KEY (account_id, sid);
            ALTER TABLE questions DROP CONSTRAINT questions_pkey, ADD PRIMARY KEY (account_id, id);
            ALTER TABLE retired_channels DROP CONSTRAINT retired_channels_pkey, ADD PRIMARY KEY (account_id, channel_id);
            ALTER TABLE device_credentials DROP CONSTRAINT device_credentials_pkey, ADD PRIMARY KEY (account_id, id);
            ALTER TABLE tokens ADD FOREIGN KEY (account_id, device_id)
                REFERENCES devices (account_id, device_id) ON DELETE CASCADE;
            DROP INDEX card_history_by_device;
            CREATE INDEX card_history_by_device ON card_history (account_id, device_id, id);
            """
        ),
    ]

    /// Tables only instances sharing one database need (no SQLite twin): who is alive, who drives which
    /// device until when, device writes queued for their owner, and each account's fleet revision.
    /// Recorded in `lfg_migrations` like the rest, under names of their own. Append only.
    public static let coordination: [StoreMigration] = [
        StoreMigration(
            "coordination_001_leases",
            """
            CREATE TABLE lfg_instances (instance_id TEXT PRIMARY KEY NOT NULL, alive_until TIMESTAMPTZ NOT NULL);
            CREATE TABLE device_leases (
                device_id TEXT PRIMARY KEY NOT NULL, owner TEXT, expires_at TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
                epoch BIGINT NOT NULL DEFAULT 0);
            CREATE INDEX device_leases_by_owner ON device_leases (owner);
            CREATE TABLE device_inbox (id BIGSERIAL PRIMARY KEY, device_id TEXT NOT NULL, event TEXT NOT NULL);
            CREATE INDEX device_inbox_by_device ON device_inbox (device_id, id);
            CREATE TABLE fleet_revision (id INTEGER PRIMARY KEY NOT NULL, value BIGINT NOT NULL);
            INSERT INTO fleet_revision (id, value) VALUES (1, 0);
            INSERT INTO device_leases (device_id) SELECT device_id FROM devices;
            """
        ),
        StoreMigration(
            "coordination_fleet_changes",
            """
            CREATE TABLE fleet_changes (
                id BIGSERIAL PRIMARY KEY, revision BIGINT NOT NULL, writer TEXT NOT NULL, kind TEXT NOT NULL,
                key TEXT NOT NULL);
            CREATE INDEX fleet_changes_by_revision ON fleet_changes (revision);
            """
        ),
        StoreMigration(
            // Accounts on a shared database (contract 8.4): leases, queued writes and fleet revisions are
            // per account (device ids are the phones' own, so two accounts may share one); the rows
            // written before are the owner's, and every stored device of any account gets its lease row.
            "coordination_002_accounts",
            """
            ALTER TABLE device_leases ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE device_leases ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE device_leases DROP CONSTRAINT device_leases_pkey, ADD PRIMARY KEY (account_id, device_id);
            INSERT INTO device_leases (account_id, device_id) SELECT account_id, device_id FROM devices
                ON CONFLICT (account_id, device_id) DO NOTHING;
            ALTER TABLE device_inbox ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE device_inbox ALTER COLUMN account_id DROP DEFAULT;
            DROP INDEX device_inbox_by_device;
            CREATE INDEX device_inbox_by_device ON device_inbox (account_id, device_id, id);
            ALTER TABLE fleet_revision ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE fleet_revision ALTER COLUMN account_id DROP DEFAULT;
            ALTER TABLE fleet_revision DROP CONSTRAINT fleet_revision_pkey;
            ALTER TABLE fleet_revision DROP COLUMN id;
            ALTER TABLE fleet_revision ADD PRIMARY KEY (account_id);
            ALTER TABLE fleet_changes ADD COLUMN account_id TEXT NOT NULL DEFAULT 'owner';
            ALTER TABLE fleet_changes ALTER COLUMN account_id DROP DEFAULT;
            DROP INDEX fleet_changes_by_revision;
            CREATE INDEX fleet_changes_by_revision ON fleet_changes (account_id, revision);
            """
        ),
        StoreMigration(
            // The last LFG-Report-Seq taken per session, so one session's reports keep their order whichever
            // instance each reaches (SharedWriteRules); a deleted session's row goes with it.
            "coordination_report_seqs",
            """
            CREATE TABLE report_seqs (
                account_id TEXT NOT NULL, sid TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (account_id, sid));
            """
        ),
    ]
}
