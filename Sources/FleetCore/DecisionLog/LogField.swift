/// Every field a decision-log line can carry, and its JSON type: the one place field names are spelled.
public enum LogField: String, Hashable, Sendable, CaseIterable {
    // Every line.
    case ts, event, deviceId
    // Decisions.
    case action, tokens, working, needsInput, rows
    // Pushes and their answers.
    case token, channel, env, status, reason, apnsId, ms
    case accepted, attempted
    // Tokens, vetoes, holds, renewal.
    case kind, veto, hadCard, active, graceSeconds, ageSeconds
    // Questions.
    case questionId, sid, answeredBy

    /// The JSON type of the field's value.
    public var kind: LogValue.Kind {
        switch self {
        case .ts, .ms, .graceSeconds, .ageSeconds: .number
        case .tokens, .working, .needsInput, .status, .accepted, .attempted, .active: .integer
        case .rows, .veto: .strings
        case .hadCard: .bool
        case .event, .deviceId, .action, .token, .channel, .env, .reason, .apnsId, .kind, .questionId, .sid,
            .answeredBy:
            .string
        }
    }
}
