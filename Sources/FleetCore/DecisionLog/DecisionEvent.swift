/// Every event of the decision log (`$LFG_HOME/liveactivity.log`, contract sections 7 and 8).
///
/// The one place event names are spelled: the writer, `lfg diagnose`, the dashboard and the simulator
/// all take them from here. `fields` is each event's record shape; a line built any other way fails
/// its schema check (`DecisionLogLine.schemaViolations`). Add an event here, with its fields, and a
/// typed constructor beside the others (`DecisionLogLine+Cards.swift` and friends).
public enum DecisionEvent: String, Hashable, Sendable, Codable, CaseIterable {
    // Section 7: the card's decisions and sends.
    case decide, send
    case noTokens = "no-tokens"
    case noneAccepted = "none-accepted"
    case partial
    case clientEnded = "client-ended"
    case adopted
    case startVetoed = "start-vetoed"
    case tokenPruned = "token-pruned"
    /// A due start waits a short grace because the app is in the foreground and about to register its own card.
    case startHeld = "start-held"
    // Section 8.1: broadcast channels and renewal.
    case channelCreated = "channel-created"
    case channelDeleted = "channel-deleted"
    case channelFailed = "channel-failed"
    case broadcast
    /// A card near iOS's 8-hour limit was replaced by a new one, and the old one ended.
    case renewed
    /// The server forgot a card iOS has ended at its 8-hour limit (no renewal could replace it).
    case cardExpired = "card-expired"
    // Section 8.2: questions.
    /// A question alert (or its withdrawal) sent to one device's `apnsToken`.
    case alert
    case questionAnswered = "question-answered"
    case questionCancelled = "question-cancelled"
    case questionExpired = "question-expired"

    /// The fields a line of this event carries besides `ts`, `event` and `deviceId`.
    public var fields: [LogFieldSpec] {
        switch self {
        case .decide:
            [
                .required(.action), .required(.tokens), .optional(.working), .optional(.needsInput), .optional(.rows),
                .optional(.priority), .optional(.channel), .optional(.purpose),
            ]
        case .send: Self.push(.token)
        case .noTokens: [.required(.action)]
        case .noneAccepted, .partial: [.required(.action), .required(.accepted), .required(.attempted)]
        case .clientEnded: [.required(.veto), .required(.hadCard)]
        // Through an update token (`token`, `env`) or, in channel mode, the channel the card listens on.
        case .adopted: [.optional(.token), .optional(.env), .optional(.channel)]
        case .startVetoed: [.required(.veto), .required(.active)]
        // `status` when APNs rejected it; `reason` alone when the server forgot it (its card ended).
        case .tokenPruned: [.required(.token), .required(.env), .required(.kind), .optional(.status), .optional(.reason)]
        case .startHeld: [.required(.graceSeconds), .required(.active)]
        case .channelCreated: [.required(.channel), .required(.env), .optional(.ms)]
        case .channelDeleted: [.required(.channel), .required(.env), .optional(.status), .optional(.ms)]
        case .channelFailed:
            [
                .optional(.channel), .optional(.operation), .required(.env), .required(.status), .optional(.reason),
                .optional(.ms), .optional(.fallback), .optional(.failures), .optional(.retryAt),
            ]
        case .broadcast: Self.push(.channel)
        case .renewed: [.required(.oldStartedAt), .required(.oldEnded), .required(.mode), .optional(.channel)]
        case .cardExpired: [.required(.startedAt)]
        case .alert: Self.question + Self.push(.token)
        // An answer through the API may name no device.
        case .questionAnswered, .questionCancelled, .questionExpired: Self.question + [.optional(.answeredBy)]
        }
    }

    /// Whether the event is about a device's fleet card (sections 7 and 8.1); questions' events are not.
    public var concernsCard: Bool {
        switch self {
        case .alert, .questionAnswered, .questionCancelled, .questionExpired: false
        default: true
        }
    }

    private static let question: [LogFieldSpec] = [.required(.questionId), .required(.sid), .required(.kind)]

    /// One push to APNs and its answer, addressed to a token or a channel (`send`, `broadcast`, `alert`).
    private static func push(_ address: LogField) -> [LogFieldSpec] {
        [
            .required(.action), .required(address), .required(.env), .required(.status), .optional(.reason),
            .optional(.apnsId), .required(.ms),
        ]
    }
}

/// Whether an event's line must carry a field.
public struct LogFieldSpec: Hashable, Sendable {
    public var field: LogField
    public var isRequired: Bool

    public static func required(_ field: LogField) -> LogFieldSpec { LogFieldSpec(field: field, isRequired: true) }
    public static func optional(_ field: LogField) -> LogFieldSpec { LogFieldSpec(field: field, isRequired: false) }
}
