import FleetCore

/// One surface of the card as the page draws it: FleetCore's `SurfaceLayout` plus each row's elapsed label.
public struct SurfaceView: Encodable, Sendable, Equatable {
    public struct RowView: Encodable, Sendable, Equatable {
        public var sid: String
        public var title: String
        public var state: String
        public var since: UnixTime
        /// `ElapsedLabel.text(since:now:)` at the snapshot's time.
        public var elapsed: String
        /// The line under the title (`SurfaceLayout.line(for:now:)`): "No news for 12m", or nil.
        public var line: String?
    }

    /// `lockScreen`, `islandExpanded`, `islandCompact` or `islandMinimal`.
    public var surface: String
    public var showsHeader: Bool
    public var showsAccentDot: Bool
    public var showsTotal: Bool
    public var activeTotal: Int
    public var working: Int
    public var needsInput: Int
    public var accent: String
    public var rows: [RowView]
    /// "2 More", or nil.
    public var overflowText: String?
    /// What the surface draws instead of blank rows for a privacy push (no titles), or nil.
    public var wordless: WordlessCard?
    /// The question's line where the surface shows one (its words, or what kind of answer a wordless one needs).
    public var questionLine: String?
    /// The buttons the Lock Screen draws under it (a confirm question's two answers).
    public var questionButtons: [String]
    /// The session a tap opens.
    public var opensSession: String?

    /// The view of `layout` at `now`.
    public init(_ layout: SurfaceLayout, now: UnixTime) {
        surface = layout.surface.rawValue
        showsHeader = layout.showsHeader
        showsAccentDot = layout.showsAccentDot
        showsTotal = layout.showsTotal
        activeTotal = layout.activeTotal
        working = layout.working
        needsInput = layout.needsInput
        accent = layout.accent.hex
        rows = layout.rows.map { row in
            RowView(
                sid: row.sid.rawValue, title: row.title, state: row.state.rawValue, since: row.since,
                elapsed: ElapsedLabel.text(since: row.since, now: now), line: layout.line(for: row, now: now))
        }
        overflowText = layout.overflowText
        wordless = layout.wordless
        questionLine = layout.questionLine
        questionButtons = layout.showsQuestionButtons ? layout.question?.buttons ?? [] : []
        opensSession = layout.opensSession?.rawValue
    }
}
