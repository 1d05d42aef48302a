import APNs
import ControlPlane
import FleetCore
import Foundation
import HTTPTypes

/// The store in `$LFG_HOME/lfg.sqlite`: one connection owned by this actor, WAL mode, named migrations,
/// and every ``commit(_:)`` one transaction committed before it returns.
public actor SQLiteStore: Store {
    private let connection: SQLiteConnection
    public nonisolated let path: String

    /// Opens (creating and migrating) the database at `path`.
    public init(path: String, now: UnixTime = Date().timeIntervalSince1970) throws(StoreError) {
        self.path = path
        connection = try SQLiteConnection(path: path)
        try Migrations.migrate(connection, now: now)
    }

    /// The names of the applied migrations, in order.
    public func appliedMigrations() throws(StoreError) -> [String] { try Migrations.applied(connection) }

    public func load() throws(StoreError) -> StoreContents {
        var contents = StoreContents()
        let decoder = JSONDecoder()
        try connection.statement("SELECT sid, report FROM sessions").run { row throws(StoreError) in
            contents.sessions[SessionID(row.text(0))] = try Self.decode(SessionReport.self, row.text(1), decoder)
        }
        try connection.statement("SELECT host, last_seen, ttl_seconds FROM hosts").run { row in
            contents.hosts[HostID(row.text(0))] = HostHeartbeat(lastSeen: row.real(1), ttlSeconds: row.real(2))
        }
        try connection.statement(
            "SELECT device_id, profile, card, veto, veto_logged, channel, retiring_card FROM devices"
        ).run { row throws(StoreError) in
            contents.devices[DeviceID(row.text(0))] = DeviceRecord(
                profile: try Self.decode(DeviceProfile.self, row.text(1), decoder),
                card: try row.optionalText(2).map { text throws(StoreError) in try Self.decode(FleetCard.self, text, decoder) },
                veto: try row.optionalText(3).map { text throws(StoreError) in try Self.decode(Set<SessionID>.self, text, decoder) },
                isVetoLogged: row.integer(4) != 0,
                channel: try row.optionalText(5).map { text throws(StoreError) in try Self.decode(ChannelState.self, text, decoder) }
                    ?? ChannelState(),
                retiringCard: try row.optionalText(6).map { text throws(StoreError) in
                    try Self.decode(RetiringCard.self, text, decoder)
                })
        }
        try connection.statement(
            "SELECT device_id, kind, env, hex, registered_at FROM tokens ORDER BY device_id, position"
        ).run { row in
            guard let kind = TokenKind(rawValue: row.text(1)), let env = PushEnvironment(rawValue: row.text(2)) else {
                return
            }
            contents.devices[DeviceID(row.text(0))]?.tokens.append(
                LiveActivityToken(kind: kind, env: env, hex: row.text(3), registeredAt: row.real(4)))
        }
        try connection.statement("SELECT sid, state, since FROM since").run { row in
            contents.since[SessionID(row.text(0))] = SinceEntry(state: RowState(rawValue: row.text(1)), since: row.real(2))
        }
        try connection.statement(
            "SELECT channel_id, env, device_id, created_at, hold_until FROM retired_channels ORDER BY position"
        ).run { row throws(StoreError) in
            guard let env = PushEnvironment(rawValue: row.text(1)) else {
                throw StoreError(operation: "load retired channels", message: "unknown env '\(row.text(1))' in a stored row")
            }
            let id: BroadcastChannelID
            do { id = try BroadcastChannelID(row.text(0)) } catch {
                throw StoreError(operation: "load retired channels", message: "a stored channel id is unreadable: \(error)")
            }
            contents.retiredChannels.append(
                DeviceChannel(
                    id: id, env: env, deviceId: DeviceID(row.text(2)), createdAt: row.real(3), holdUntil: row.optionalReal(4)))
        }
        try connection.statement("SELECT question FROM questions").run { row throws(StoreError) in
            let question = try Self.decode(Question.self, row.text(0), decoder)
            contents.questions[question.id] = question
        }
        try connection.statement(
            "SELECT id, secret_hash, name, device_id, created_at, revoked_at FROM device_credentials"
        ).run { row in
            let record = DeviceCredentialRecord(
                id: DeviceCredentialID(row.text(0)), secretHash: row.text(1), name: row.text(2),
                deviceId: row.optionalText(3).map { DeviceID($0) }, createdAt: row.real(4), revokedAt: row.optionalReal(5))
            contents.deviceCredentials[record.id] = record
        }
        return contents
    }

    public func commit(_ writes: [StoreWrite]) throws(StoreError) {
        guard !writes.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for write in writes { try apply(write) }
        }
    }

    public func history(deviceId: DeviceID?, limit: Int) throws(StoreError) -> [CardHistoryRecord] {
        var records: [CardHistoryRecord] = []
        let columns = "device_id, started_at, origin, adopted_at, ended_at, end_reason"
        let statement = deviceId == nil
            ? try connection.statement("SELECT \(columns) FROM card_history ORDER BY id DESC LIMIT ?1")
            : try connection.statement("SELECT \(columns) FROM card_history WHERE device_id = ?2 ORDER BY id DESC LIMIT ?1")
        var values: [SQLiteStatement.Value] = [.integer(Int64(limit))]
        if let deviceId { values.append(.text(deviceId.rawValue)) }
        try statement.run(values) { row in
            records.append(CardHistoryRecord(
                deviceId: DeviceID(row.text(0)), startedAt: row.real(1),
                origin: CardOrigin(rawValue: row.text(2)) ?? .pushToStart, adoptedAt: row.optionalReal(3),
                endedAt: row.optionalReal(4), endReason: row.optionalText(5).flatMap(CardEndReason.init(rawValue:))))
        }
        return records
    }

    private func apply(_ write: StoreWrite) throws(StoreError) {
        switch write {
        case .putSession(let sid, let report):
            try connection.statement("INSERT OR REPLACE INTO sessions (sid, report) VALUES (?1, ?2)")
                .run([.text(sid.rawValue), .text(try Self.encode(report))])
        case .deleteSession(let sid):
            try connection.statement("DELETE FROM sessions WHERE sid = ?1").run([.text(sid.rawValue)])
        case .putHost(let host, let heartbeat):
            try connection.statement("INSERT OR REPLACE INTO hosts (host, last_seen, ttl_seconds) VALUES (?1, ?2, ?3)")
                .run([.text(host.rawValue), .real(heartbeat.lastSeen), .real(heartbeat.ttlSeconds)])
        case .putDevice(let deviceId, let record):
            try putDevice(deviceId, record)
        case .putSince(let since):
            let statement = try connection.statement("INSERT OR REPLACE INTO since (sid, state, since) VALUES (?1, ?2, ?3)")
            for (sid, entry) in since {
                try statement.run([.text(sid.rawValue), .text(entry.state.rawValue), .real(entry.since)])
            }
        case .deleteSince(let sids):
            let statement = try connection.statement("DELETE FROM since WHERE sid = ?1")
            for sid in sids { try statement.run([.text(sid.rawValue)]) }
        case .recordHistory(let event):
            try recordHistory(event)
        case .putRetiredChannels(let channels):
            try connection.execute("DELETE FROM retired_channels")
            let insert = try connection.statement(
                "INSERT INTO retired_channels (channel_id, env, device_id, created_at, position, hold_until) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            for (position, channel) in channels.enumerated() {
                try insert.run([
                    .text(channel.id.rawValue), .text(channel.env.rawValue), .text(channel.deviceId.rawValue),
                    .real(channel.createdAt), .integer(Int64(position)), channel.holdUntil.map { .real($0) } ?? .null,
                ])
            }
        case .deleteDevice(let deviceId):
            try connection.statement("DELETE FROM tokens WHERE device_id = ?1").run([.text(deviceId.rawValue)])
            try connection.statement("DELETE FROM devices WHERE device_id = ?1").run([.text(deviceId.rawValue)])
        case .putQuestion(let question):
            try connection.statement(
                "INSERT OR REPLACE INTO questions (id, sid, state, created_at, question) VALUES (?1, ?2, ?3, ?4, ?5)"
            ).run([
                .text(question.id.rawValue), .text(question.sid.rawValue), .text(question.state.rawValue),
                .real(question.createdAt), .text(try Self.encode(question)),
            ])
        case .deleteQuestions(let ids):
            let statement = try connection.statement("DELETE FROM questions WHERE id = ?1")
            for id in ids { try statement.run([.text(id.rawValue)]) }
        case .putDeviceCredential(let record):
            try connection.statement(
                "INSERT OR REPLACE INTO device_credentials (id, secret_hash, name, device_id, created_at, revoked_at) "
                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
            ).run([
                .text(record.id.rawValue), .text(record.secretHash), .text(record.name),
                record.deviceId.map { .text($0.rawValue) } ?? .null, .real(record.createdAt),
                record.revokedAt.map { .real($0) } ?? .null,
            ])
        }
    }

    private func putDevice(_ deviceId: DeviceID, _ record: DeviceRecord) throws(StoreError) {
        let id = SQLiteStatement.Value.text(deviceId.rawValue)
        try connection.statement(
            """
            INSERT INTO devices (device_id, profile, card, veto, veto_logged, channel, retiring_card)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (device_id) DO UPDATE SET
                profile = ?2, card = ?3, veto = ?4, veto_logged = ?5, channel = ?6, retiring_card = ?7
            """
        ).run([
            id, .text(try Self.encode(record.profile)),
            try record.card.map { card throws(StoreError) in .text(try Self.encode(card)) } ?? .null,
            try record.veto.map { veto throws(StoreError) in .text(try Self.encode(veto.sorted())) } ?? .null,
            .integer(record.isVetoLogged ? 1 : 0), .text(try Self.encode(record.channel)),
            try record.retiringCard.map { card throws(StoreError) in .text(try Self.encode(card)) } ?? .null,
        ])
        try connection.statement("DELETE FROM tokens WHERE device_id = ?1").run([id])
        let insert = try connection.statement(
            "INSERT INTO tokens (device_id, kind, env, hex, registered_at, position) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        for (position, token) in record.tokens.enumerated() {
            try insert.run([
                id, .text(token.kind.rawValue), .text(token.env.rawValue), .text(token.hex), .real(token.registeredAt),
                .integer(Int64(position)),
            ])
        }
    }

    private func recordHistory(_ event: CardHistoryEvent) throws(StoreError) {
        let openRecord = "(SELECT max(id) FROM card_history WHERE device_id = ?1 AND ended_at IS NULL)"
        switch event {
        case .started(let deviceId, let at, let origin):
            try connection.statement("INSERT INTO card_history (device_id, started_at, origin) VALUES (?1, ?2, ?3)")
                .run([.text(deviceId.rawValue), .real(at), .text(origin.rawValue)])
        case .adopted(let deviceId, let at):
            try connection.statement(
                "UPDATE card_history SET adopted_at = ?2 WHERE id = \(openRecord) AND adopted_at IS NULL"
            ).run([.text(deviceId.rawValue), .real(at)])
        case .ended(let deviceId, let at, let reason):
            try connection.statement("UPDATE card_history SET ended_at = ?2, end_reason = ?3 WHERE id = \(openRecord)")
                .run([.text(deviceId.rawValue), .real(at), .text(reason.rawValue)])
        }
    }

    private static func encode(_ value: some Encodable) throws(StoreError) -> String {
        do {
            return String(decoding: try WireJSON.encode(value), as: UTF8.self)
        } catch {
            throw StoreError(operation: "encode", message: "\(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String, _ decoder: JSONDecoder) throws(StoreError) -> T {
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw StoreError(operation: "decode \(T.self)", message: "a stored row is unreadable: \(error)")
        }
    }
}
