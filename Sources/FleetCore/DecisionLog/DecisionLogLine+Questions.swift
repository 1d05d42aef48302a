/// Typed constructors for questions answered from the phone (contract section 8.2).
extension DecisionLogLine {
    /// One alert push for question `questionId` to a device's `apnsToken` (shortened) and APNs' answer.
    public static func alert(
        at ts: UnixTime, deviceId: DeviceID, questionId: String, sid: SessionID, token: String,
        env: PushEnvironment, answer: LoggedAnswer
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .alert, deviceId: deviceId,
            fields: answer.fields.merging(
                [
                    .questionId: .string(questionId), .sid: .string(sid.rawValue), .token: .shortened(token),
                    .env: .string(env.rawValue),
                ]
            ) { _, new in new })
    }

    /// The first answer won; `answeredBy` is a device id or `terminal`.
    public static func questionAnswered(
        at ts: UnixTime, deviceId: DeviceID, questionId: String, sid: SessionID, answeredBy: String
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .questionAnswered, deviceId: deviceId,
            fields: [.questionId: .string(questionId), .sid: .string(sid.rawValue), .answeredBy: .string(answeredBy)])
    }

    /// The prompt cleared or changed before an answer (`answeredBy: terminal` when that is known).
    public static func questionCancelled(
        at ts: UnixTime, deviceId: DeviceID, questionId: String, sid: SessionID, answeredBy: String? = nil
    ) -> DecisionLogLine {
        var fields: [LogField: LogValue] = [.questionId: .string(questionId), .sid: .string(sid.rawValue)]
        if let answeredBy { fields[.answeredBy] = .string(answeredBy) }
        return DecisionLogLine(ts: ts, event: .questionCancelled, deviceId: deviceId, fields: fields)
    }

    public static func questionExpired(
        at ts: UnixTime, deviceId: DeviceID, questionId: String, sid: SessionID
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .questionExpired, deviceId: deviceId,
            fields: [.questionId: .string(questionId), .sid: .string(sid.rawValue)])
    }
}
