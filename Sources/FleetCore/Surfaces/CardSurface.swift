/// The four places one ActivityConfiguration renders the fleet card.
public enum CardSurface: String, Hashable, Sendable, Codable, CaseIterable {
    /// Lock screen: header plus at most 3 rows (a height budget, not a taste call).
    case lockScreen
    /// Dynamic Island, expanded: a tighter budget of 2 rows; the third folds into the overflow.
    case islandExpanded
    /// Dynamic Island, compact: an accent dot leading, the active total trailing.
    case islandCompact
    /// Dynamic Island, minimal (shared with another app): the accent dot alone.
    case islandMinimal

    /// Rows this surface shows.
    public var rowBudget: Int {
        switch self {
        case .lockScreen: FleetReducer.maxRows
        case .islandExpanded: 2
        case .islandCompact, .islandMinimal: 0
        }
    }

    /// Rows a question takes from ``rowBudget`` on this surface: its line, plus a line of buttons on the lock
    /// screen (the only surface with room for them); nil where a question does not fit at all.
    public func questionRowCost(_ question: CardQuestion) -> Int? {
        switch self {
        case .lockScreen: question.buttons.isEmpty ? 1 : 2
        case .islandExpanded: 1
        case .islandCompact, .islandMinimal: nil
        }
    }
}

/// What one surface draws for a content state: pure data a SwiftUI view or the dashboard renders as is.
public struct SurfaceLayout: Hashable, Sendable, Codable {
    public var surface: CardSurface
    /// The header counts (lock screen and expanded island): active, working, needs input.
    public var activeTotal: Int
    public var working: Int
    public var needsInput: Int
    /// The rows this surface shows, in card order.
    public var rows: [Row]
    /// The "N More" figure: the state's `more` plus rows this surface had no room for.
    public var overflow: Int
    public var accent: Accent
    /// Whether the surface draws the header line (counts); compact and minimal do not.
    public var showsHeader: Bool
    /// Whether the surface draws the accent dot.
    public var showsAccentDot: Bool
    /// Whether the surface draws the active total as text (compact only, beside the dot).
    public var showsTotal: Bool
    /// The question this surface shows above its rows (lock screen and expanded island), or nil.
    public var question: CardQuestion?
    /// Whether the question's answers are drawn as buttons (lock screen, confirm questions).
    public var showsQuestionButtons: Bool
    /// The session tapping the surface opens: the question's, else the first row's; nil opens the app.
    public var opensSession: SessionID?

    /// The layout of `state` on `surface`.
    public init(_ state: ContentState, on surface: CardSurface) {
        self.surface = surface
        activeTotal = state.activeTotal
        working = state.working
        needsInput = state.needsInput
        accent = state.accent
        let questionCost = state.question.flatMap { surface.questionRowCost($0) }
        question = questionCost == nil ? nil : state.question
        showsQuestionButtons = surface == .lockScreen && !(question?.buttons.isEmpty ?? true)
        opensSession = state.question?.sid ?? state.rows.first?.sid
        // A question takes the room of the rows it needs, so the card never grows past its height budget.
        let visible = Array(state.rows.prefix(max(0, surface.rowBudget - (questionCost ?? 0))))
        rows = visible
        switch surface {
        case .lockScreen, .islandExpanded:
            overflow = state.more + max(0, state.rows.count - visible.count)
            showsHeader = true
            showsAccentDot = surface == .islandExpanded
            showsTotal = false
        case .islandCompact:
            overflow = 0
            showsHeader = false
            showsAccentDot = true
            showsTotal = true
        case .islandMinimal:
            overflow = 0
            showsHeader = false
            showsAccentDot = true
            showsTotal = false
        }
    }

    /// The overflow line's text ("2 More"), or nil when there is no overflow.
    public var overflowText: String? { overflow > 0 ? "\(overflow) More" : nil }

    /// The question's line: its words, or on a privacy device (words blanked) what kind of answer it needs.
    public var questionLine: String? {
        guard let question else { return nil }
        if !question.text.isEmpty { return question.text }
        switch question.kind {
        case .confirm: return "A session asks for your go-ahead"
        case .choice: return "A session asks you to choose"
        case .text: return "A session asks you a question"
        }
    }
}
