/// Every field a decision-log line can carry, and its JSON type: the one place field names are spelled.
public enum LogField: String, Hashable, Sendable, CaseIterable {
    // Every line.
    case ts, event, deviceId
    // Decisions.
    case action, tokens, working, needsInput, rows, priority, purpose
    // Pushes and their answers.
    case token, channel, env, status, reason, apnsId, ms
    case accepted, attempted
    // Tokens, vetoes, holds.
    case kind, veto, hadCard, active, graceSeconds
    // Channels, renewal and expiry.
    case operation, fallback, failures, retryAt, mode, oldStartedAt, oldEnded, startedAt
    // Questions.
    case questionId, sid, answeredBy

    /// The JSON type of the field's value.
    public var kind: LogValue.Kind {
        switch self {
        case .ts, .ms, .graceSeconds, .retryAt, .oldStartedAt, .startedAt: .number
        case .tokens, .working, .needsInput, .priority, .status, .accepted, .attempted, .active, .failures: .integer
        case .rows, .veto: .strings
        case .hadCard, .oldEnded: .bool
        case .event, .deviceId, .action, .purpose, .token, .channel, .env, .reason, .apnsId, .kind, .operation,
            .fallback, .mode, .questionId, .sid, .answeredBy:
            .string
        }
    }
}
