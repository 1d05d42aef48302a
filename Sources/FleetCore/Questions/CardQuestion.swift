/// The question the fleet card shows: the oldest pending one among the sessions it counts (issue 14.4).
///
/// Both writers derive it from the session prompts in ``FleetReducer``, so the app and the server put the
/// same words on the card and compare the same states. The person's words live in ``text`` alone: a
/// privacy device's card blanks that one field (contract 8.3), and what is left (ids, kind, the fixed
/// confirm labels) still lets the card offer its buttons and open the session.
public struct CardQuestion: Hashable, Sendable, Codable {
    /// The question's id (its prompt's id): what an answer from the card is posted to.
    public var id: QuestionID
    /// The session that asks; tapping the card opens it.
    public var sid: SessionID
    public var kind: Question.Kind
    /// The question's words, shortened to fit (``maximumTextBytes``); empty on a privacy device.
    public var text: String
    /// The answers the card offers as buttons: a confirm question's two options (the contract's fixed
    /// labels, never the person's words); empty for choice and text questions, answered in the app.
    public var buttons: [String]

    public init(id: QuestionID, sid: SessionID, kind: Question.Kind, text: String, buttons: [String]) {
        self.id = id
        self.sid = sid
        self.kind = kind
        self.text = text
        self.buttons = buttons
    }

    /// The most the question's id, sid and text may take together once JSON-encoded: with
    /// ``FleetReducer/maxRows`` rows of ``CardTitle/maximumRowBytes`` the worst state still fits every
    /// push (start with a channel included; `PayloadSizeTests`). A long sid or id leaves the text less.
    public static let maximumQuestionBytes = 560
    /// The most the text may take once JSON-encoded, ellipsis included.
    public static let maximumTextBytes = 320

    /// The card's question for `question`, its text fitted to what the id and sid leave.
    public init(_ question: Question) {
        let used = CardTitle.encodedBytes(question.id.rawValue) + CardTitle.encodedBytes(question.sid.rawValue)
        let budget = min(Self.maximumTextBytes, max(0, Self.maximumQuestionBytes - used))
        self.init(
            id: question.id, sid: question.sid, kind: question.kind,
            text: CardTitle.fitted(question.text, toEncodedBytes: budget),
            buttons: question.kind == .confirm ? question.options : [])
    }

    /// The same question with its words blanked (a privacy device's card).
    public var wordless: CardQuestion {
        var copy = self
        copy.text = ""
        return copy
    }

    enum CodingKeys: String, CodingKey { case id, sid, kind, text, buttons }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(.id, default: QuestionID(""))
        sid = try container.decode(.sid, default: SessionID(""))
        kind = try container.decode(.kind, default: Question.Kind.text)
        text = try container.decode(.text, default: "")
        buttons = try container.decode(.buttons, default: [])
    }
}

extension CardQuestion {
    /// The question a session in needs-input asks the card, or nil: no answerable prompt (no id, a
    /// sign-in), or one already past its `expiresAt` at `now`.
    static func asked(by session: FleetSession, at now: UnixTime) -> Question? {
        guard let prompt = session.report.prompt,
            let question = Question.asked(by: prompt, in: session.sid, at: now, defaultLifetime: .infinity),
            !question.isPastExpiry(at: now)
        else { return nil }
        return question
    }
}
