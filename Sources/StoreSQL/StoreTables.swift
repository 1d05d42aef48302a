import APNs
import ControlPlane
import FleetCore
import Foundation
import HTTPTypes

/// How the store's contents map to tables: written once, run by the SQLite and the PostgreSQL store alike,
/// so the two can never drift in meaning (the schema each creates is in its own migration list).
public enum StoreTables {
    /// Everything stored.
    public static func load(_ database: some SQLDatabase) throws(StoreError) -> StoreContents {
        var contents = try loadShared(database)
        let decoder = JSONDecoder()
        try database.run(
            "SELECT device_id, profile, card, veto, veto_logged, channel, retiring_card FROM devices", []
        ) { row throws(StoreError) in
            contents.devices[DeviceID(row.text(0))] = try device(row, decoder)
        }
        try database.run(
            "SELECT device_id, kind, env, hex, registered_at FROM tokens ORDER BY device_id, position", []
        ) { row in
            guard let token = token(row) else { return }
            contents.devices[DeviceID(row.text(0))]?.tokens.append(token)
        }
        try database.run("SELECT sid, state, since FROM since", []) { row in
            contents.since[SessionID(row.text(0))] = SinceEntry(state: RowState(rawValue: row.text(1)), since: row.real(2))
        }
        try database.run(
            "SELECT channel_id, env, device_id, created_at, hold_until FROM retired_channels ORDER BY position", []
        ) { row throws(StoreError) in
            contents.retiredChannels.append(try retiredChannel(row))
        }
        return contents
    }

    /// What every instance sharing a database reads: sessions, hosts and questions (no devices).
    public static func loadShared(_ database: some SQLDatabase) throws(StoreError) -> StoreContents {
        var contents = StoreContents()
        let decoder = JSONDecoder()
        try database.run("SELECT sid, report FROM sessions", []) { row throws(StoreError) in
            contents.sessions[SessionID(row.text(0))] = try decode(SessionReport.self, row.text(1), decoder)
        }
        try database.run("SELECT host, last_seen, ttl_seconds FROM hosts", []) { row in
            contents.hosts[HostID(row.text(0))] = HostHeartbeat(lastSeen: row.real(1), ttlSeconds: row.real(2))
        }
        try database.run("SELECT question FROM questions", []) { row throws(StoreError) in
            let question = try decode(Question.self, row.text(0), decoder)
            contents.questions[question.id] = question
        }
        try database.run("SELECT id, secret_hash, name, device_id, created_at, revoked_at FROM device_credentials", []) { row in
            let record = DeviceCredentialRecord(
                id: DeviceCredentialID(row.text(0)), secretHash: row.text(1), name: row.text(2),
                deviceId: row.optionalText(3).map { DeviceID($0) }, createdAt: row.real(4), revokedAt: row.optionalReal(5))
            contents.deviceCredentials[record.id] = record
        }
        return contents
    }

    /// One device's stored record with its tokens; nil when none is stored.
    public static func loadDevice(_ database: some SQLDatabase, _ deviceId: DeviceID) throws(StoreError) -> DeviceRecord? {
        var record: DeviceRecord?
        let decoder = JSONDecoder()
        try database.run(
            "SELECT device_id, profile, card, veto, veto_logged, channel, retiring_card FROM devices WHERE device_id = ?1",
            [.text(deviceId.rawValue)]
        ) { row throws(StoreError) in record = try device(row, decoder) }
        guard record != nil else { return nil }
        try database.run(
            "SELECT device_id, kind, env, hex, registered_at FROM tokens WHERE device_id = ?1 ORDER BY position",
            [.text(deviceId.rawValue)]
        ) { row in
            if let token = token(row) { record?.tokens.append(token) }
        }
        return record
    }

    /// Whether the sessions, hosts or questions (what every instance reads) change with `writes`.
    public static func changesShared(_ writes: [StoreWrite]) -> Bool {
        writes.contains { write in
            switch write {
            case .putSession, .deleteSession, .putHost, .putQuestion, .deleteQuestions: return true
            default: return false
            }
        }
    }

    static func token(_ row: some SQLRow) -> LiveActivityToken? {
        guard let kind = TokenKind(rawValue: row.text(1)), let env = PushEnvironment(rawValue: row.text(2)) else { return nil }
        return LiveActivityToken(kind: kind, env: env, hex: row.text(3), registeredAt: row.real(4))
    }

    /// The card history, newest first, at most `limit` entries, optionally for one device.
    public static func history(
        _ database: some SQLDatabase, deviceId: DeviceID?, limit: Int
    ) throws(StoreError) -> [CardHistoryRecord] {
        var records: [CardHistoryRecord] = []
        let columns = "device_id, started_at, origin, adopted_at, ended_at, end_reason"
        var values: [SQLValue] = [.integer(Int64(limit))]
        if let deviceId { values.append(.text(deviceId.rawValue)) }
        let sql = deviceId == nil
            ? "SELECT \(columns) FROM card_history ORDER BY id DESC LIMIT ?1"
            : "SELECT \(columns) FROM card_history WHERE device_id = ?2 ORDER BY id DESC LIMIT ?1"
        try database.run(sql, values) { row in
            records.append(CardHistoryRecord(
                deviceId: DeviceID(row.text(0)), startedAt: row.real(1),
                origin: CardOrigin(rawValue: row.text(2)) ?? .pushToStart, adoptedAt: row.optionalReal(3),
                endedAt: row.optionalReal(4), endReason: row.optionalText(5).flatMap(CardEndReason.init(rawValue:))))
        }
        return records
    }

    /// Applies `writes` in order, inside the caller's transaction.
    public static func apply(_ writes: [StoreWrite], to database: some SQLDatabase) throws(StoreError) {
        for write in writes { try apply(write, to: database) }
    }

    static func apply(_ write: StoreWrite, to database: some SQLDatabase) throws(StoreError) {
        switch write {
        case .putSession(let sid, let report):
            try database.run(
                "INSERT INTO sessions (sid, report) VALUES (?1, ?2) ON CONFLICT (sid) DO UPDATE SET report = excluded.report",
                [.text(sid.rawValue), .text(try encode(report))])
        case .deleteSession(let sid):
            try database.run("DELETE FROM sessions WHERE sid = ?1", [.text(sid.rawValue)])
        case .putHost(let host, let heartbeat):
            try database.run(
                "INSERT INTO hosts (host, last_seen, ttl_seconds) VALUES (?1, ?2, ?3) ON CONFLICT (host) DO UPDATE SET "
                    + "last_seen = excluded.last_seen, ttl_seconds = excluded.ttl_seconds",
                [.text(host.rawValue), .real(heartbeat.lastSeen), .real(heartbeat.ttlSeconds)])
        case .putDevice(let deviceId, let record):
            try putDevice(deviceId, record, database)
        case .putSince(let since):
            for (sid, entry) in since.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try database.run(
                    "INSERT INTO since (sid, state, since) VALUES (?1, ?2, ?3) ON CONFLICT (sid) DO UPDATE SET "
                        + "state = excluded.state, since = excluded.since",
                    [.text(sid.rawValue), .text(entry.state.rawValue), .real(entry.since)])
            }
        case .deleteSince(let sids):
            for sid in sids { try database.run("DELETE FROM since WHERE sid = ?1", [.text(sid.rawValue)]) }
        case .recordHistory(let event):
            try recordHistory(event, database)
        case .putRetiredChannels(let channels):
            try database.execute("DELETE FROM retired_channels")
            try insertRetired(channels, from: 0, database)
        case .putRetiredChannelsOf(let devices, let channels):
            for deviceId in devices.sorted() {
                try database.run("DELETE FROM retired_channels WHERE device_id = ?1", [.text(deviceId.rawValue)])
            }
            var position: Int64 = 0
            try database.run("SELECT coalesce(max(position), -1) + 1 FROM retired_channels", []) { row in
                position = row.integer(0)
            }
            try insertRetired(channels, from: position, database)
        case .deleteDevice(let deviceId):
            try database.run("DELETE FROM tokens WHERE device_id = ?1", [.text(deviceId.rawValue)])
            try database.run("DELETE FROM devices WHERE device_id = ?1", [.text(deviceId.rawValue)])
        case .putQuestion(let question):
            try database.run(
                "INSERT INTO questions (id, sid, state, created_at, question) VALUES (?1, ?2, ?3, ?4, ?5) "
                    + "ON CONFLICT (id) DO UPDATE SET sid = excluded.sid, state = excluded.state, "
                    + "created_at = excluded.created_at, question = excluded.question",
                [
                    .text(question.id.rawValue), .text(question.sid.rawValue), .text(question.state.rawValue),
                    .real(question.createdAt), .text(try encode(question)),
                ])
        case .deleteQuestions(let ids):
            for id in ids { try database.run("DELETE FROM questions WHERE id = ?1", [.text(id.rawValue)]) }
        case .putDeviceCredential(let record):
            try database.run(
                "INSERT INTO device_credentials (id, secret_hash, name, device_id, created_at, revoked_at) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (id) DO UPDATE SET secret_hash = excluded.secret_hash, "
                    + "name = excluded.name, device_id = excluded.device_id, created_at = excluded.created_at, "
                    + "revoked_at = excluded.revoked_at",
                [
                    .text(record.id.rawValue), .text(record.secretHash), .text(record.name),
                    record.deviceId.map { .text($0.rawValue) } ?? .null, .real(record.createdAt),
                    record.revokedAt.map { .real($0) } ?? .null,
                ])
        }
    }

    private static func insertRetired(
        _ channels: [DeviceChannel], from first: Int64, _ database: some SQLDatabase
    ) throws(StoreError) {
        for (offset, channel) in channels.enumerated() {
            try database.run(
                "INSERT INTO retired_channels (channel_id, env, device_id, created_at, position, hold_until) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                [
                    .text(channel.id.rawValue), .text(channel.env.rawValue), .text(channel.deviceId.rawValue),
                    .real(channel.createdAt), .integer(first + Int64(offset)), channel.holdUntil.map { .real($0) } ?? .null,
                ])
        }
    }

    private static func putDevice(_ deviceId: DeviceID, _ record: DeviceRecord, _ database: some SQLDatabase) throws(StoreError) {
        let id = SQLValue.text(deviceId.rawValue)
        try database.run(
            """
            INSERT INTO devices (device_id, profile, card, veto, veto_logged, channel, retiring_card)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (device_id) DO UPDATE SET
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
        try database.run("DELETE FROM tokens WHERE device_id = ?1", [id])
        for (position, token) in record.tokens.enumerated() {
            try database.run(
                "INSERT INTO tokens (device_id, kind, env, hex, registered_at, position) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                [
                    id, .text(token.kind.rawValue), .text(token.env.rawValue), .text(token.hex), .real(token.registeredAt),
                    .integer(Int64(position)),
                ])
        }
    }

    private static func recordHistory(_ event: CardHistoryEvent, _ database: some SQLDatabase) throws(StoreError) {
        let openRecord = "(SELECT max(id) FROM card_history WHERE device_id = ?1 AND ended_at IS NULL)"
        switch event {
        case .started(let deviceId, let at, let origin):
            try database.run(
                "INSERT INTO card_history (device_id, started_at, origin) VALUES (?1, ?2, ?3)",
                [.text(deviceId.rawValue), .real(at), .text(origin.rawValue)])
        case .adopted(let deviceId, let at):
            try database.run(
                "UPDATE card_history SET adopted_at = ?2 WHERE id = \(openRecord) AND adopted_at IS NULL",
                [.text(deviceId.rawValue), .real(at)])
        case .ended(let deviceId, let at, let reason):
            try database.run(
                "UPDATE card_history SET ended_at = ?2, end_reason = ?3 WHERE id = \(openRecord)",
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
