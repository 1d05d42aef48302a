/// Typed constructors for broadcast channels and renewal (contract section 8.1).
/// `channel` may be the whole base64 id: only its first 8 characters are written.
extension DecisionLogLine {
    public static func channelCreated(
        at ts: UnixTime, deviceId: DeviceID, channel: String, env: PushEnvironment
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .channelCreated, deviceId: deviceId,
            fields: [.channel: .shortened(channel), .env: .string(env.rawValue)])
    }

    public static func channelDeleted(
        at ts: UnixTime, deviceId: DeviceID, channel: String, env: PushEnvironment
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .channelDeleted, deviceId: deviceId,
            fields: [.channel: .shortened(channel), .env: .string(env.rawValue)])
    }

    /// Creating (no `channel` yet) or deleting a channel failed; the device stays in (or falls back to) token mode.
    public static func channelFailed(
        at ts: UnixTime, deviceId: DeviceID, channel: String? = nil, env: PushEnvironment, status: Int,
        reason: String?
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [.env: .string(env.rawValue), .status: .integer(status)]
        if let channel { fields[.channel] = .shortened(channel) }
        if let reason { fields[.reason] = .string(reason) }
        return DecisionLogLine(ts: ts, event: .channelFailed, deviceId: deviceId, fields: fields)
    }

    /// One broadcast publish to a channel and APNs' answer.
    public static func broadcast(
        at ts: UnixTime, deviceId: DeviceID, action: PushAction, channel: String, env: PushEnvironment,
        answer: LoggedAnswer
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .broadcast, deviceId: deviceId,
            fields: answer.fields.merging(
                [.action: .string(action.rawValue), .channel: .shortened(channel), .env: .string(env.rawValue)]
            ) { _, new in new })
    }

    /// The card was replaced before the 8-hour limit, at `ageSeconds` old.
    public static func renewed(
        at ts: UnixTime, deviceId: DeviceID, ageSeconds: Double, token: String? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [.ageSeconds: .number(ageSeconds)]
        if let token { fields[.token] = .shortened(token) }
        return DecisionLogLine(ts: ts, event: .renewed, deviceId: deviceId, fields: fields)
    }
}
