import Foundation

/// A store as `lfg serve` wrote it before accounts existed (schema 001-005): `sqlite3 lfg.sqlite .dump` of
/// the file a real server (main at 7575220+) wrote for PUT two sessions (one asking question q1), a host
/// heartbeat, device `phone` with its start and update tokens (an adopted card), and a phone paired
/// through POST /api/pairing-codes and /api/pair; two card-history records and a held retired channel were
/// then added with the statements that version ran. ``pairedCredential`` is what that pairing answered.
enum Schema005Fixture {
    /// The paired phone's credential, as `POST /api/pair` gave it.
    static let pairedCredential = "lfgd.3525df777350b0d7.c1c626e20905ac1a54470e5aa4da0d62b5f01fbd3d56cfeac08e369fd868f019"

    static let dump = #"""
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE lfg_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at DOUBLE PRECISION NOT NULL);
INSERT INTO lfg_migrations VALUES('001_initial',1796166287.06426239);
INSERT INTO lfg_migrations VALUES('002_questions',1796166287.06426239);
INSERT INTO lfg_migrations VALUES('003_broadcast_channels',1796166287.06426239);
INSERT INTO lfg_migrations VALUES('004_retired_channel_hold',1796166287.06426239);
INSERT INTO lfg_migrations VALUES('005_device_credentials',1796166287.06426239);
CREATE TABLE sessions (sid TEXT PRIMARY KEY NOT NULL, report TEXT NOT NULL);
INSERT INTO sessions VALUES('s1','{"archived":false,"blocked":false,"busy":true,"cwd":"","host":"mac","prompt":{"id":"q1","kind":"permission","options":["Allow","Deny"],"text":"Bash: make"},"title":"Build","unread":false}');
INSERT INTO sessions VALUES('s2','{"archived":false,"blocked":false,"busy":false,"cwd":"","host":"mac","prompt":null,"title":"Tests","unread":false}');
CREATE TABLE hosts (host TEXT PRIMARY KEY NOT NULL, last_seen REAL NOT NULL, ttl_seconds REAL NOT NULL);
INSERT INTO hosts VALUES('mac',1796166292.6530954837,30.0);
CREATE TABLE devices (
    device_id TEXT PRIMARY KEY NOT NULL, profile TEXT NOT NULL, card TEXT, veto TEXT,
    veto_logged INTEGER NOT NULL DEFAULT 0, channel TEXT, retiring_card TEXT);
INSERT INTO devices VALUES('phone','{"apnsToken":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","env":"sandbox","hiddenDirs":[],"liveActivityChannels":false,"platform":"ios"}','{"origin":"adopted","startedAt":1796166292.7235456}',NULL,0,'{"failures":0}',NULL);
CREATE TABLE tokens (
    device_id TEXT NOT NULL REFERENCES devices(device_id) ON DELETE CASCADE,
    kind TEXT NOT NULL, env TEXT NOT NULL, hex TEXT NOT NULL, registered_at REAL NOT NULL,
    position INTEGER NOT NULL, PRIMARY KEY (device_id, kind, hex));
INSERT INTO tokens VALUES('phone','update','sandbox','cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc',1796166292.7235455513,0);
INSERT INTO tokens VALUES('phone','pushToStart','sandbox','bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',1796166292.6974685191,1);
CREATE TABLE since (sid TEXT PRIMARY KEY NOT NULL, state TEXT NOT NULL, since REAL NOT NULL);
CREATE TABLE card_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT, device_id TEXT NOT NULL, started_at REAL NOT NULL,
    origin TEXT NOT NULL, adopted_at REAL, ended_at REAL, end_reason TEXT);
INSERT INTO card_history VALUES(1,'phone',1796166292.7235455513,'adopted',NULL,NULL,NULL);
INSERT INTO card_history VALUES(2,'phone',1796166000.0,'pushToStart',1796166003.0,1796166100.0,'clientEnded');
INSERT INTO card_history VALUES(3,'phone',1796166200.0,'adopted',NULL,NULL,NULL);
CREATE TABLE questions (
    id TEXT PRIMARY KEY NOT NULL, sid TEXT NOT NULL, state TEXT NOT NULL, created_at REAL NOT NULL,
    question TEXT NOT NULL);
INSERT INTO questions VALUES('q1','s1','pending',1796166292.6062145232,'{"answer":null,"answeredBy":null,"createdAt":1796166292.6062145,"expiresAt":1796166892.6062145,"id":"q1","kind":"confirm","options":["Allow","Deny"],"sid":"s1","state":"pending","text":"Bash: make"}');
CREATE TABLE retired_channels (
    channel_id TEXT PRIMARY KEY NOT NULL, env TEXT NOT NULL, device_id TEXT NOT NULL,
    created_at REAL NOT NULL, position INTEGER NOT NULL, hold_until REAL);
INSERT INTO retired_channels VALUES('Y2hhbm5lbC0x','production','phone',1796166050.4999999999,0,1796194850.5);
CREATE TABLE device_credentials (
    id TEXT PRIMARY KEY NOT NULL, secret_hash TEXT NOT NULL, name TEXT NOT NULL, device_id TEXT,
    created_at REAL NOT NULL, revoked_at REAL);
INSERT INTO device_credentials VALUES('3525df777350b0d7','6dae38ec6a028cf12ec0db75508ef6389c28eed33160d40b2c3ee376f6d801ad','Ana iPhone','phone',1796166293.3874375819,NULL);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('card_history',3);
CREATE INDEX card_history_by_device ON card_history (device_id, id);
COMMIT;
"""#
}
