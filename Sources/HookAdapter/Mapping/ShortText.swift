/// Shortens free text (prompts, commands, questions) to one readable line for a title or a step.
enum ShortText {
    /// Titles: long enough to recognise a prompt, short enough for a card row.
    static let titleLimit = 50
    /// Steps and prompt texts: a command or a question the user can act on at a glance.
    static let stepLimit = 60
    static let promptLimit = 160

    /// The first non-blank line of `text` with runs of whitespace collapsed, cut to at most `limit`
    /// characters (at a word boundary when one is near) and marked with "…" when cut; nil when blank.
    static func firstLine(_ text: String, limit: Int) -> String? {
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        guard let line else { return nil }
        let words = line.split(whereSeparator: \.isWhitespace)
        let collapsed = words.joined(separator: " ")
        guard collapsed.count > limit else { return collapsed }
        let cut = collapsed.prefix(limit - 1)
        // Prefer ending on a whole word unless that throws away more than a third of the budget.
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) >= limit * 2 / 3 {
            return String(cut[..<space]).trimmingTrailingPunctuation() + "…"
        }
        return String(cut) + "…"
    }

    /// The last path component of `path` (`/a/b/Foo.swift` -> `Foo.swift`), or nil when blank.
    static func lastComponent(_ path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let last = parts.last else { return nil }
        return String(last)
    }
}

extension String {
    /// Drops trailing commas and similar before an ellipsis ("add," + "…" reads badly).
    fileprivate func trimmingTrailingPunctuation() -> String {
        var text = self
        while let last = text.last, [",", ";", ":", "-"].contains(last) { text.removeLast() }
        return text
    }
}
