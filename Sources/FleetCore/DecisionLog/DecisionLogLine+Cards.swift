/// Typed constructors for the card's events (contract section 7): the only way lines are written.
extension DecisionLogLine {
    /// The watcher decided `action` for the card; `tokens` is how many tokens it addresses (0: none, and
    /// a `no-tokens` line follows). `content` is what the push would carry; `priority` the APNs priority,
    /// `channel` the broadcast channel it goes to or starts on (shortened), `purpose` why, when not the card itself.
    public static func decide(
        at ts: UnixTime, deviceId: DeviceID, action: PushAction, tokens: Int, content: ContentState,
        priority: Int? = nil, channel: String? = nil, purpose: String? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [
            .action: .string(action.rawValue), .tokens: .integer(tokens), .working: .integer(content.working),
            .needsInput: .integer(content.needsInput),
            .rows: .strings(content.rows.map { "\($0.sid.rawValue):\($0.state.rawValue)" }),
        ]
        if let priority { fields[.priority] = .integer(priority) }
        if let channel { fields[.channel] = .shortened(channel) }
        if let purpose { fields[.purpose] = .string(purpose) }
        return DecisionLogLine(ts: ts, event: .decide, deviceId: deviceId, fields: fields)
    }

    /// One token's push and APNs' answer. `token` may be whole: only its first 8 characters are written.
    public static func send(
        at ts: UnixTime, deviceId: DeviceID, action: PushAction, token: String, env: PushEnvironment,
        answer: LoggedAnswer
    ) -> DecisionLogLine {
        pushLine(.send, at: ts, deviceId: deviceId, action: action, address: [.token: .shortened(token)], env: env, answer: answer)
    }

    /// A push and its answer (`send`, `broadcast`): `address` names the token or the channel.
    static func pushLine(
        _ event: DecisionEvent, at ts: UnixTime, deviceId: DeviceID, action: PushAction, address: [LogField: LogValue],
        env: PushEnvironment, answer: LoggedAnswer
    ) -> DecisionLogLine {
        var fields = answer.fields.merging(address) { _, new in new }
        fields[.action] = .string(action.rawValue)
        fields[.env] = .string(env.rawValue)
        return DecisionLogLine(ts: ts, event: event, deviceId: deviceId, fields: fields)
    }

    /// `action` was due but no token can carry it.
    public static func noTokens(at ts: UnixTime, deviceId: DeviceID, action: PushAction) -> DecisionLogLine {
        DecisionLogLine(ts: ts, event: .noTokens, deviceId: deviceId, fields: [.action: .string(action.rawValue)])
    }

    /// A batch fell short of its delivery threshold: `none-accepted` when nothing accepted, else `partial`.
    public static func shortfall(
        at ts: UnixTime, deviceId: DeviceID, action: PushAction, accepted: Int, attempted: Int
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: accepted == 0 ? .noneAccepted : .partial, deviceId: deviceId,
            fields: [
                .action: .string(action.rawValue), .accepted: .integer(accepted), .attempted: .integer(attempted),
            ])
    }

    /// The phone ended its card; `veto` is the active population it ended against.
    public static func clientEnded(
        at ts: UnixTime, deviceId: DeviceID, veto: [SessionID], hadCard: Bool
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .clientEnded, deviceId: deviceId,
            fields: [.veto: .strings(veto.map(\.rawValue).sorted()), .hadCard: .bool(hadCard)])
    }

    /// The phone registered an update token: its card is taken over. `token` is shortened.
    public static func adopted(at ts: UnixTime, deviceId: DeviceID, token: String, env: PushEnvironment) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .adopted, deviceId: deviceId, fields: [.token: .shortened(token), .env: .string(env.rawValue)])
    }

    /// The phone reported a card listening on `channel` (channel mode): it is taken over. `channel` is shortened.
    public static func adopted(at ts: UnixTime, deviceId: DeviceID, channel: String) -> DecisionLogLine {
        DecisionLogLine(ts: ts, event: .adopted, deviceId: deviceId, fields: [.channel: .shortened(channel)])
    }

    /// A start was refused because every active session is in the veto (logged once per population).
    public static func startVetoed(
        at ts: UnixTime, deviceId: DeviceID, veto: [SessionID], active: Int
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .startVetoed, deviceId: deviceId,
            fields: [.veto: .strings(veto.map(\.rawValue).sorted()), .active: .integer(active)])
    }

    /// A token proved dead (APNs' `status`) or was forgotten (`reason` only) and was dropped. `kind` is
    /// the token kind's raw value; `token` is shortened.
    public static func tokenPruned(
        at ts: UnixTime, deviceId: DeviceID, token: String, env: PushEnvironment, kind: String, status: Int?,
        reason: String? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [.token: .shortened(token), .env: .string(env.rawValue), .kind: .string(kind)]
        if let status { fields[.status] = .integer(status) }
        if let reason { fields[.reason] = .string(reason) }
        return DecisionLogLine(ts: ts, event: .tokenPruned, deviceId: deviceId, fields: fields)
    }

    /// A due start waits up to `graceSeconds` for the foreground app's own card.
    public static func startHeld(
        at ts: UnixTime, deviceId: DeviceID, graceSeconds: Double, active: Int
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .startHeld, deviceId: deviceId,
            fields: [.graceSeconds: .number(graceSeconds), .active: .integer(active)])
    }
}
