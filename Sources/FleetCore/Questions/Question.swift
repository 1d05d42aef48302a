/// A question's id: the `id` of the prompt that asked it (contract 8.2), also its alerts' collapse id.
public struct QuestionID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A prompt the phone can answer (contract 8.2): what was asked, and how it ended.
///
/// Decoding is lenient like every wire type (a missing key takes its default), so an app built against
/// an older server still reads it.
public struct Question: Hashable, Sendable, Codable {
    /// How the question is answered.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// One of two fixed options (a permission or a plan).
        case confirm
        /// One of the prompt's options.
        case choice
        /// Free text.
        case text
    }

    /// Where the question is in its life; only `pending` can change.
    public enum State: String, Hashable, Sendable, Codable, CaseIterable {
        case pending, answered, expired, cancelled
    }

    /// `answeredBy` when the person answered at the terminal.
    public static let answeredAtTerminal = "terminal"
    /// The extra answer a permission question that ``canAlwaysAllow`` accepts: allow, and keep allowing.
    public static let alwaysAllowAnswer = "Always allow"

    public var id: QuestionID
    public var sid: SessionID
    public var kind: Kind
    public var text: String
    public var options: [String]
    public var state: State
    public var answer: String?
    /// The answering device's id, or ``answeredAtTerminal``.
    public var answeredBy: String?
    public var createdAt: UnixTime
    public var expiresAt: UnixTime?
    /// Whether ``alwaysAllowAnswer`` is accepted besides ``options`` (an extension of the contract).
    public var canAlwaysAllow: Bool

    public init(
        id: QuestionID, sid: SessionID, kind: Kind, text: String, options: [String], state: State = .pending,
        answer: String? = nil, answeredBy: String? = nil, createdAt: UnixTime, expiresAt: UnixTime?,
        canAlwaysAllow: Bool = false
    ) {
        self.id = id
        self.sid = sid
        self.kind = kind
        self.text = text
        self.options = options
        self.state = state
        self.answer = answer
        self.answeredBy = answeredBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.canAlwaysAllow = canAlwaysAllow
    }

    /// Whether `answer` is one this question takes: one of the options (or "Always allow" where offered)
    /// for confirm and choice, any non-blank text up to ``maximumAnswerLength`` for text.
    public func accepts(_ answer: String) -> Bool {
        switch kind {
        case .confirm, .choice:
            return options.contains(answer) || (canAlwaysAllow && answer == Self.alwaysAllowAnswer)
        case .text:
            return answer.contains { !$0.isWhitespace } && answer.count <= Self.maximumAnswerLength
        }
    }

    /// The longest free-text answer taken, in characters.
    public static let maximumAnswerLength = 4000

    /// Whether it has expired at `now` (an expired question takes no answer even before it is marked).
    public func isPastExpiry(at now: UnixTime) -> Bool { expiresAt.map { now >= $0 } ?? false }

    enum CodingKeys: String, CodingKey {
        case id, sid, kind, text, options, state, answer, answeredBy, createdAt, expiresAt, canAlwaysAllow
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(.id, default: QuestionID(""))
        sid = try container.decode(.sid, default: SessionID(""))
        kind = try container.decode(.kind, default: Kind.text)
        text = try container.decode(.text, default: "")
        options = try container.decode(.options, default: [])
        state = try container.decode(.state, default: State.pending)
        answer = try container.decodeIfPresent(String.self, forKey: .answer)
        answeredBy = try container.decodeIfPresent(String.self, forKey: .answeredBy)
        createdAt = try container.decode(.createdAt, default: 0)
        expiresAt = try container.decodeIfPresent(UnixTime.self, forKey: .expiresAt)
        canAlwaysAllow = try container.decode(.canAlwaysAllow, default: false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sid, forKey: .sid)
        try container.encode(kind, forKey: .kind)
        try container.encode(text, forKey: .text)
        try container.encode(options, forKey: .options)
        try container.encode(state, forKey: .state)
        // null, not absent: the contract writes these as `String|null`.
        try container.encode(answer, forKey: .answer)
        try container.encode(answeredBy, forKey: .answeredBy)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        if canAlwaysAllow { try container.encode(true, forKey: .canAlwaysAllow) }
    }
}
