/// Everything the fleet card shows; both writers replace it wholesale on every update.
public struct ContentState: Hashable, Sendable, Codable {
    /// Sessions mid-turn: all of them, not only the rendered rows.
    public var working: Int
    /// Sessions waiting on a person (question, permission, plan, sign-in): all of them.
    public var needsInput: Int
    /// At most ``FleetReducer/maxRows`` rows: needs-input first, then oldest `since`, ties on sid.
    public var rows: [Row]
    /// Active sessions beyond `rows`, rendered as "N More".
    public var more: Int
    /// When this state was computed (Unix seconds). Never part of a change comparison.
    public var updatedAt: UnixTime
    /// The oldest pending question of the counted sessions, shown where it fits (``SurfaceLayout``);
    /// nil when none waits. Absent from the JSON when nil, so older widgets and servers read it unchanged.
    public var question: CardQuestion?

    public init(
        working: Int = 0, needsInput: Int = 0, rows: [Row] = [], more: Int = 0, updatedAt: UnixTime = 0,
        question: CardQuestion? = nil
    ) {
        self.working = working
        self.needsInput = needsInput
        self.rows = rows
        self.more = more
        self.updatedAt = updatedAt
        self.question = question
    }

    /// The state an `end` push carries: nothing active.
    public static func zeroed(at now: UnixTime) -> ContentState { ContentState(updatedAt: now) }

    /// Every active session: the count the compact island shows.
    public var activeTotal: Int { working + needsInput }

    enum CodingKeys: String, CodingKey { case working, needsInput, rows, more, updatedAt, question }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        working = try container.decode(.working, default: 0)
        needsInput = try container.decode(.needsInput, default: 0)
        rows = try container.decode(.rows, default: [])
        more = try container.decode(.more, default: 0)
        updatedAt = try container.decode(.updatedAt, default: 0)
        question = try container.decodeIfPresent(CardQuestion.self, forKey: .question)
    }
}
