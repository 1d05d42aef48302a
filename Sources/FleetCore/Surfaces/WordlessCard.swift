/// What a surface draws for a card that carries no words (privacy mode, contract 8.3): a pushed state whose
/// rows have no titles. Rather than rows of blank titles (or session ids), the card says how many sessions
/// there are and where to go: "2 sessions" and "1 needs you: open LFG to answer". The widget and the
/// dashboard both draw it from here.
public struct WordlessCard: Hashable, Sendable, Codable {
    /// "1 session", "3 sessions".
    public var headline: String
    /// Where to go: "1 needs you: open LFG to answer", or "Open LFG to see what they are doing".
    public var guidance: String

    /// The wordless card of `layout`; nil when its rows carry words or it has no rows (nothing to hide).
    public init?(_ layout: SurfaceLayout) {
        guard !layout.rows.isEmpty, layout.rows.allSatisfy(\.isWordless) else { return nil }
        self.init(activeTotal: layout.activeTotal, needsInput: layout.needsInput)
    }

    /// The text for `activeTotal` sessions of which `needsInput` wait on the person.
    public init(activeTotal: Int, needsInput: Int) {
        headline = activeTotal == 1 ? "1 session" : "\(activeTotal) sessions"
        guidance = needsInput > 0
            ? "\(needsInput) need\(needsInput == 1 ? "s" : "") you: open LFG to answer"
            : "Open LFG to see what they are doing"
    }
}

extension SurfaceLayout {
    /// The wordless card this surface draws instead of its rows, when the state carries no words.
    public var wordless: WordlessCard? { WordlessCard(self) }
}
