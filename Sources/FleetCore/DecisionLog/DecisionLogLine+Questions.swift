/// Typed constructors for questions answered from the phone (contract section 8.2).
extension DecisionLogLine {
    /// The device id of lines that concern no one device (a question cancelled or expired).
    public static let noDevice = DeviceID("")

    /// One question push to a device's `apnsToken` (shortened) and APNs' answer. `action` says which
    /// push: `ask` (the alert) or `withdraw` (the background push after the question stopped being pending).
    public static func alert(
        at ts: UnixTime, deviceId: DeviceID, question: Question, action: String, token: String,
        env: PushEnvironment, answer: LoggedAnswer
    ) -> DecisionLogLine {
        DecisionLogLine(
            ts: ts, event: .alert, deviceId: deviceId,
            fields: answer.fields.merging(
                questionFields(question).merging(
                    [.action: .string(action), .token: .shortened(token), .env: .string(env.rawValue)]
                ) { _, new in new }
            ) { _, new in new })
    }

    /// `question-answered`, `question-cancelled` or `question-expired`, from the question's state.
    /// An answered question's line belongs to the device that answered; the others to no device.
    public static func questionResolved(_ question: Question, at ts: UnixTime) -> DecisionLogLine {
        let event: DecisionEvent =
            switch question.state {
            case .answered: .questionAnswered
            case .expired: .questionExpired
            case .cancelled, .pending: .questionCancelled
            }
        var fields = questionFields(question)
        if let by = question.answeredBy { fields[.answeredBy] = .string(by) }
        let deviceId = question.state == .answered ? question.answeredBy.map { DeviceID($0) } : nil
        return DecisionLogLine(ts: ts, event: event, deviceId: deviceId ?? noDevice, fields: fields)
    }

    private static func questionFields(_ question: Question) -> [LogField: LogValue] {
        [.questionId: .string(question.id.rawValue), .sid: .string(question.sid.rawValue), .kind: .string(question.kind.rawValue)]
    }
}
