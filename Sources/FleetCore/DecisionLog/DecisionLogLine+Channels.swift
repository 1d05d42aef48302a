/// Typed constructors for broadcast channels, renewal and expiry (contract section 8.1).
/// `channel` may be the whole base64 id: only its first 8 characters are written.
extension DecisionLogLine {
    public static func channelCreated(
        at ts: UnixTime, deviceId: DeviceID, channel: String, env: PushEnvironment, milliseconds: Double? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [.channel: .shortened(channel), .env: .string(env.rawValue)]
        if let milliseconds { fields[.ms] = .number(milliseconds) }
        return DecisionLogLine(ts: ts, event: .channelCreated, deviceId: deviceId, fields: fields)
    }

    public static func channelDeleted(
        at ts: UnixTime, deviceId: DeviceID, channel: String, env: PushEnvironment, status: Int? = nil,
        milliseconds: Double? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [.channel: .shortened(channel), .env: .string(env.rawValue)]
        if let status { fields[.status] = .integer(status) }
        if let milliseconds { fields[.ms] = .number(milliseconds) }
        return DecisionLogLine(ts: ts, event: .channelDeleted, deviceId: deviceId, fields: fields)
    }

    /// A channel request (`operation`: create, publish, delete) failed. `extra` carries what the watcher
    /// did about it (`fallback`, `failures`, `retryAt`), each a schema field of this event.
    public static func channelFailed(
        at ts: UnixTime, deviceId: DeviceID, channel: String? = nil, operation: String? = nil, env: PushEnvironment,
        answer: LoggedAnswer, extra: [LogField: LogValue] = [:]
    ) -> DecisionLogLine {
        var fields = answer.fields.merging(extra) { _, new in new }
        fields[.env] = .string(env.rawValue)
        fields[.apnsId] = nil
        if let channel { fields[.channel] = .shortened(channel) }
        if let operation { fields[.operation] = .string(operation) }
        return DecisionLogLine(ts: ts, event: .channelFailed, deviceId: deviceId, fields: fields)
    }

    /// One broadcast publish to a channel and APNs' answer.
    public static func broadcast(
        at ts: UnixTime, deviceId: DeviceID, action: PushAction, channel: String, env: PushEnvironment,
        answer: LoggedAnswer
    ) -> DecisionLogLine {
        pushLine(
            .broadcast, at: ts, deviceId: deviceId, action: action, address: [.channel: .shortened(channel)], env: env,
            answer: answer)
    }

    /// The card started at `oldStartedAt` was replaced before the 8-hour limit; `oldEnded` says whether
    /// its `end` was delivered, `mode` how it was reached, `channel` the new card's channel.
    public static func renewed(
        at ts: UnixTime, deviceId: DeviceID, oldStartedAt: UnixTime, oldEnded: Bool, mode: String,
        channel: String? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [
            .oldStartedAt: .number(oldStartedAt), .oldEnded: .bool(oldEnded), .mode: .string(mode),
        ]
        if let channel { fields[.channel] = .shortened(channel) }
        return DecisionLogLine(ts: ts, event: .renewed, deviceId: deviceId, fields: fields)
    }

    /// iOS ended the card started at `startedAt` at its 8-hour limit; the server forgot it.
    public static func cardExpired(at ts: UnixTime, deviceId: DeviceID, startedAt: UnixTime) -> DecisionLogLine {
        DecisionLogLine(ts: ts, event: .cardExpired, deviceId: deviceId, fields: [.startedAt: .number(startedAt)])
    }
}
