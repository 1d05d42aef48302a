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

    /// The layout of `state` on `surface`.
    public init(_ state: ContentState, on surface: CardSurface) {
        self.surface = surface
        activeTotal = state.activeTotal
        working = state.working
        needsInput = state.needsInput
        accent = state.accent
        let visible = Array(state.rows.prefix(surface.rowBudget))
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
}
