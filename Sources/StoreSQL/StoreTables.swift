import APNs
import ControlPlane
import FleetCore
import Foundation
import HTTPTypes

/// How the store's contents map to tables: written once, run by the SQLite and the PostgreSQL store alike,
/// so the two can never drift in meaning (the schema each creates is in its own migration list).
///
/// Every row belongs to one account (contract 8.4): each statement here runs through ``AccountRows``,
/// which binds the account to `?1`, and every statement names `account_id = ?1`, so one account's
/// reads and writes can never touch another's rows.
public enum StoreTables {
    /// Everything `account` stored.
    public static func load(_ database: some SQLDatabase, account: AccountID) throws(StoreError) -> StoreContents {
        let rows = AccountRows(database: database, account: account)
        var contents = try loadShared(database, account: account)
        let decoder = JSONDecoder()
        try rows.run(
            "SELECT device_id, profile, card, veto, veto_logged, channel, retiring_card FROM devices WHERE account_id = ?1"
        ) { row throws(StoreError) in
            contents.devices[DeviceID(row.text(0))] = try device(row, decoder)
        }
        try rows.run(
            "SELECT device_id, kind, env, hex, registered_at FROM tokens WHERE account_id = ?1 ORDER BY device_id, position"
        ) { row in
            guard let token = token(row) else { return }
            contents.devices[DeviceID(row.text(0))]?.tokens.append(token)
        }
        contents.since = try loadSince(database, account: account)
        try rows.run(
            "SELECT channel_id, env, device_id, created_at, hold_until FROM retired_channels WHERE account_id = ?1 "
                + "ORDER BY position"
        ) { row throws(StoreError) in
            contents.retiredChannels.append(try retiredChannel(row))
        }
        return contents
    }

    /// What every instance sharing a database reads of `account`: sessions, hosts, questions and paired
    /// devices' credentials (no devices).
    public static func loadShared(_ database: some SQLDatabase, account: AccountID) throws(StoreError) -> StoreContents {
        let rows = AccountRows(database: database, account: account)
        var contents = StoreContents()
        let decoder = JSONDecoder()
        try rows.run("SELECT sid, report FROM sessions WHERE account_id = ?1") { row throws(StoreError) in
            contents.sessions[SessionID(row.text(0))] = try decode(SessionReport.self, row.text(1), decoder)
        }
        try rows.run("SELECT host, last_seen, ttl_seconds FROM hosts WHERE account_id = ?1") { row in
            contents.hosts[HostID(row.text(0))] = HostHeartbeat(lastSeen: row.real(1), ttlSeconds: row.real(2))
        }
        try rows.run("SELECT question FROM questions WHERE account_id = ?1") { row throws(StoreError) in
            let question = try decode(Question.self, row.text(0), decoder)
            contents.questions[question.id] = question
        }
        try rows.run(
            "SELECT id, secret_hash, name, device_id, created_at, revoked_at FROM device_credentials WHERE account_id = ?1"
        ) { row in
            let record = DeviceCredentialRecord(
                id: DeviceCredentialID(row.text(0)), secretHash: row.text(1), name: row.text(2),
                deviceId: row.optionalText(3).map { DeviceID($0) }, createdAt: row.real(4), revokedAt: row.optionalReal(5))
            contents.deviceCredentials[record.id] = record
        }
        return contents
    }

    /// `account`'s `since` baselines.
    public static func loadSince(_ database: some SQLDatabase, account: AccountID) throws(StoreError) -> SinceMap {
        var since: SinceMap = [:]
        try AccountRows(database: database, account: account).run("SELECT sid, state, since FROM since WHERE account_id = ?1") {
            row in since[SessionID(row.text(0))] = SinceEntry(state: RowState(rawValue: row.text(1)), since: row.real(2))
        }
        return since
    }

    static func token(_ row: some SQLRow) -> LiveActivityToken? {
        guard let kind = TokenKind(rawValue: row.text(1)), let env = PushEnvironment(rawValue: row.text(2)) else { return nil }
        return LiveActivityToken(kind: kind, env: env, hex: row.text(3), registeredAt: row.real(4))
    }

    /// `account`'s card history, newest first, at most `limit` entries, optionally for one device.
    public static func history(
        _ database: some SQLDatabase, account: AccountID, deviceId: DeviceID?, limit: Int
    ) throws(StoreError) -> [CardHistoryRecord] {
        let rows = AccountRows(database: database, account: account)
        var records: [CardHistoryRecord] = []
        let columns = "device_id, started_at, origin, adopted_at, ended_at, end_reason"
        var values: [SQLValue] = [.integer(Int64(limit))]
        if let deviceId { values.append(.text(deviceId.rawValue)) }
        let sql = deviceId == nil
            ? "SELECT \(columns) FROM card_history WHERE account_id = ?1 ORDER BY id DESC LIMIT ?2"
            : "SELECT \(columns) FROM card_history WHERE account_id = ?1 AND device_id = ?3 ORDER BY id DESC LIMIT ?2"
        try rows.run(sql, values) { row in
            records.append(CardHistoryRecord(
                deviceId: DeviceID(row.text(0)), startedAt: row.real(1),
                origin: CardOrigin(rawValue: row.text(2)) ?? .pushToStart, adoptedAt: row.optionalReal(3),
                endedAt: row.optionalReal(4), endReason: row.optionalText(5).flatMap(CardEndReason.init(rawValue:))))
        }
        return records
    }

    /// Applies `writes` to `account`'s rows in order, inside the caller's transaction.
    public static func apply(_ writes: [StoreWrite], account: AccountID, to database: some SQLDatabase) throws(StoreError) {
        let rows = AccountRows(database: database, account: account)
        for write in writes { try apply(write, to: rows) }
    }

    static func apply(_ write: StoreWrite, to rows: AccountRows<some SQLDatabase>) throws(StoreError) {
        switch write {
        case .takeReportSeq(let sid, _):
            // A shared database's own rule (PostgresStore takes these before the other writes).
            throw StoreError(
                operation: "take report seq for \(sid)",
                message: "this store is not shared by several instances and keeps no report numbers")
        case .putSession(let sid, let report):
            try rows.run(
                "INSERT INTO sessions (account_id, sid, report) VALUES (?1, ?2, ?3) "
                    + "ON CONFLICT (account_id, sid) DO UPDATE SET report = excluded.report",
                [.text(sid.rawValue), .text(try sessionRow(report))])
        case .deleteSession(let sid):
            try rows.run("DELETE FROM sessions WHERE account_id = ?1 AND sid = ?2", [.text(sid.rawValue)])
        case .putHost(let host, let heartbeat):
            try rows.run(
                "INSERT INTO hosts (account_id, host, last_seen, ttl_seconds) VALUES (?1, ?2, ?3, ?4) "
                    + "ON CONFLICT (account_id, host) DO UPDATE SET "
                    + "last_seen = excluded.last_seen, ttl_seconds = excluded.ttl_seconds",
                [.text(host.rawValue), .real(heartbeat.lastSeen), .real(heartbeat.ttlSeconds)])
        case .putDevice(let deviceId, let record):
            try putDevice(deviceId, record, rows)
        case .putSince(let since):
            for (sid, entry) in since.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try rows.run(
                    "INSERT INTO since (account_id, sid, state, since) VALUES (?1, ?2, ?3, ?4) "
                        + "ON CONFLICT (account_id, sid) DO UPDATE SET state = excluded.state, since = excluded.since",
                    [.text(sid.rawValue), .text(entry.state.rawValue), .real(entry.since)])
            }
        case .deleteSince(let sids):
            for sid in sids { try rows.run("DELETE FROM since WHERE account_id = ?1 AND sid = ?2", [.text(sid.rawValue)]) }
        case .recordHistory(let event):
            try recordHistory(event, rows)
        case .putRetiredChannels(let channels):
            try rows.run("DELETE FROM retired_channels WHERE account_id = ?1")
            try insertRetired(channels, from: 0, rows)
        case .putRetiredChannelsOf(let devices, let channels):
            for deviceId in devices.sorted() {
                try rows.run(
                    "DELETE FROM retired_channels WHERE account_id = ?1 AND device_id = ?2", [.text(deviceId.rawValue)])
            }
            var position: Int64 = 0
            try rows.run("SELECT coalesce(max(position), -1) + 1 FROM retired_channels WHERE account_id = ?1") { row in
                position = row.integer(0)
            }
            try insertRetired(channels, from: position, rows)
        case .deleteDevice(let deviceId):
            try rows.run("DELETE FROM tokens WHERE account_id = ?1 AND device_id = ?2", [.text(deviceId.rawValue)])
            try rows.run("DELETE FROM devices WHERE account_id = ?1 AND device_id = ?2", [.text(deviceId.rawValue)])
        case .putQuestion(let question):
            try rows.run(
                "INSERT INTO questions (account_id, id, sid, state, created_at, question) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
                    + "ON CONFLICT (account_id, id) DO UPDATE SET sid = excluded.sid, state = excluded.state, "
                    + "created_at = excluded.created_at, question = excluded.question",
                [
                    .text(question.id.rawValue), .text(question.sid.rawValue), .text(question.state.rawValue),
                    .real(question.createdAt), .text(try encode(question)),
                ])
        case .deleteQuestions(let ids):
            for id in ids { try rows.run("DELETE FROM questions WHERE account_id = ?1 AND id = ?2", [.text(id.rawValue)]) }
        case .putDeviceCredential(let record):
            try rows.run(
                "INSERT INTO device_credentials (account_id, id, secret_hash, name, device_id, created_at, revoked_at) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (account_id, id) DO UPDATE SET "
                    + "secret_hash = excluded.secret_hash, name = excluded.name, device_id = excluded.device_id, "
                    + "created_at = excluded.created_at, revoked_at = excluded.revoked_at",
                [
                    .text(record.id.rawValue), .text(record.secretHash), .text(record.name),
                    record.deviceId.map { .text($0.rawValue) } ?? .null, .real(record.createdAt),
                    record.revokedAt.map { .real($0) } ?? .null,
                ])
        }
    }

    private static func insertRetired(
        _ channels: [DeviceChannel], from first: Int64, _ rows: AccountRows<some SQLDatabase>
    ) throws(StoreError) {
        for (offset, channel) in channels.enumerated() {
            try rows.run(
                "INSERT INTO retired_channels (account_id, channel_id, env, device_id, created_at, position, hold_until) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                [
                    .text(channel.id.rawValue), .text(channel.env.rawValue), .text(channel.deviceId.rawValue),
                    .real(channel.createdAt), .integer(first + Int64(offset)), channel.holdUntil.map { .real($0) } ?? .null,
                ])
        }
    }

    private static func putDevice(
        _ deviceId: DeviceID, _ record: DeviceRecord, _ rows: AccountRows<some SQLDatabase>
    ) throws(StoreError) {
        let id = SQLValue.text(deviceId.rawValue)
        try rows.run(
            """
            INSERT INTO devices (account_id, device_id, profile, card, veto, veto_logged, channel, retiring_card)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT (account_id, device_id) DO UPDATE SET
                profile = excluded.profile, card = excluded.card, veto = excluded.veto,
                veto_logged = excluded.veto_logged, channel = excluded.channel, retiring_card = excluded.retiring_card
            """,
            [
                id, .text(try encode(record.profile)),
                try record.card.map { card throws(StoreError) in .text(try encode(card)) } ?? .null,
                try record.veto.map { veto throws(StoreError) in .text(try encode(veto.sorted())) } ?? .null,
                .integer(record.isVetoLogged ? 1 : 0), .text(try encode(record.channel)),
                try record.retiringCard.map { card throws(StoreError) in .text(try encode(card)) } ?? .null,
            ])
        try rows.run("DELETE FROM tokens WHERE account_id = ?1 AND device_id = ?2", [id])
        for (position, token) in record.tokens.enumerated() {
            try rows.run(
                "INSERT INTO tokens (account_id, device_id, kind, env, hex, registered_at, position) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                [
                    id, .text(token.kind.rawValue), .text(token.env.rawValue), .text(token.hex), .real(token.registeredAt),
                    .integer(Int64(position)),
                ])
        }
    }

    private static func recordHistory(_ event: CardHistoryEvent, _ rows: AccountRows<some SQLDatabase>) throws(StoreError) {
        let openRecord = "(SELECT max(id) FROM card_history WHERE account_id = ?1 AND device_id = ?2 AND ended_at IS NULL)"
        switch event {
        case .started(let deviceId, let at, let origin):
            try rows.run(
                "INSERT INTO card_history (account_id, device_id, started_at, origin) VALUES (?1, ?2, ?3, ?4)",
                [.text(deviceId.rawValue), .real(at), .text(origin.rawValue)])
        case .adopted(let deviceId, let at):
            try rows.run(
                "UPDATE card_history SET adopted_at = ?3 WHERE id = \(openRecord) AND adopted_at IS NULL",
                [.text(deviceId.rawValue), .real(at)])
        case .ended(let deviceId, let at, let reason):
            try rows.run(
                "UPDATE card_history SET ended_at = ?3, end_reason = ?4 WHERE id = \(openRecord)",
                [.text(deviceId.rawValue), .real(at), .text(reason.rawValue)])
        }
    }
    static func device(_ row: some SQLRow, _ decoder: JSONDecoder) throws(StoreError) -> DeviceRecord {
        DeviceRecord(
            profile: try decode(DeviceProfile.self, row.text(1), decoder),
            card: try row.optionalText(2).map { text throws(StoreError) in try decode(FleetCard.self, text, decoder) },
            veto: try row.optionalText(3).map { text throws(StoreError) in try decode(Set<SessionID>.self, text, decoder) },
            isVetoLogged: row.integer(4) != 0,
            channel: try row.optionalText(5).map { text throws(StoreError) in try decode(ChannelState.self, text, decoder) }
                ?? ChannelState(),
            retiringCard: try row.optionalText(6).map { text throws(StoreError) in try decode(RetiringCard.self, text, decoder) })
    }

    static func retiredChannel(_ row: some SQLRow) throws(StoreError) -> DeviceChannel {
        guard let env = PushEnvironment(rawValue: row.text(1)) else {
            throw StoreError(operation: "load retired channels", message: "unknown env '\(row.text(1))' in a stored row")
        }
        let id: BroadcastChannelID
        do { id = try BroadcastChannelID(row.text(0)) } catch {
            throw StoreError(operation: "load retired channels", message: "a stored channel id is unreadable: \(error)")
        }
        return DeviceChannel(
            id: id, env: env, deviceId: DeviceID(row.text(2)), createdAt: row.real(3), holdUntil: row.optionalReal(4))
    }

    /// A session's stored `report` column: its report's JSON (every store that batches its rows writes this).
    public static func sessionRow(_ report: SessionReport) throws(StoreError) -> String { try encode(report) }

    static func encode(_ value: some Encodable) throws(StoreError) -> String {
        do {
            return String(decoding: try WireJSON.encode(value), as: UTF8.self)
        } catch {
            throw StoreError(operation: "encode", message: "\(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, _ decoder: JSONDecoder) throws(StoreError) -> T {
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw StoreError(operation: "decode \(T.self)", message: "a stored row is unreadable: \(error)")
        }
    }
}
