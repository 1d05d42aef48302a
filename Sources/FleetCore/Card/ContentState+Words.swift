/// Whether a card's pushes carry words (contract 8.3, privacy mode).
///
/// With ``withheld`` every Live Activity payload for the device carries only counts, phases, ids and times:
/// Apple relays it and could read it, so no session title, step, question, option, answer or path goes in.
/// The app, when alive, puts the words back with its own local update (it has them from its own connection).
public enum CardWords: String, Hashable, Sendable, Codable, CaseIterable {
    /// Titles travel in the push, as before privacy mode.
    case shown
    /// Pushes carry no words; only the app's local updates do.
    case withheld
}

extension Row {
    /// This row with every word removed: the sid, state and `since` stay (ids, phases and times), the title
    /// goes. The one place that says which of a row's fields are words: a field added later that holds words
    /// must be blanked here.
    public var wordless: Row {
        var row = self
        row.title = ""
        return row
    }

    /// Whether the row carries no words.
    public var isWordless: Bool { title.isEmpty }
}

extension ContentState {
    /// This state as a privacy device's push carries it: every row ``Row/wordless`` and the question
    /// ``CardQuestion/wordless`` (its ids, kind and fixed confirm labels stay); counts, `more` and `updatedAt`
    /// unchanged.
    public var wordless: ContentState {
        var state = self
        state.rows = rows.map(\.wordless)
        state.question = question?.wordless
        return state
    }

    /// Whether neither a row nor the question carries words.
    public var isWordless: Bool { rows.allSatisfy(\.isWordless) && (question?.text.isEmpty ?? true) }

    /// This state as a push with `words` carries it.
    public func carrying(_ words: CardWords) -> ContentState {
        switch words {
        case .shown: self
        case .withheld: wordless
        }
    }

    /// This state with the words of `worded` put back: each wordless row takes the title of `worded`'s row
    /// with the same sid (a row `worded` lacks stays wordless), and the question its text when `worded` shows
    /// the same question. Counts, phases, ids and times stay this state's:
    /// the app puts words on what the server pushed, it never overrules the push.
    public func withWords(from worded: ContentState) -> ContentState {
        var state = self
        var titles: [SessionID: String] = [:]
        for row in worded.rows where titles[row.sid] == nil { titles[row.sid] = row.title }
        for index in state.rows.indices where state.rows[index].isWordless {
            state.rows[index].title = titles[state.rows[index].sid] ?? ""
        }
        if let question = state.question, question.text.isEmpty, let local = worded.question, local.id == question.id {
            state.question?.text = local.text
        }
        return state
    }

    /// "The same" between the two writers of a privacy device's card.
    ///
    /// The server pushes wordless states; the app, while alive, writes the same state with its words. A card
    /// showing either already shows `other` as far as a push with `words` can tell: with ``CardWords/withheld``
    /// two states are the same when their wordless forms are (``isSame(as:guards:)``), so a worded local state
    /// never counts as a change against the wordless push before it, nor the reverse. Without this, a server
    /// comparing what it pushed (wordless) with the fleet (worded) would push on every tick, and the app would
    /// put the words back after each one: the two writers fighting.
    ///
    /// With ``CardWords/shown`` it is ``isSame(as:guards:)``: a title change is a change.
    public func isSame(as other: ContentState, words: CardWords, guards: GuardSet = .all) -> Bool {
        switch words {
        case .shown: isSame(as: other, guards: guards)
        case .withheld: wordless.isSame(as: other.wordless, guards: guards)
        }
    }
}

extension Optional where Wrapped == ContentState {
    /// ``ContentState/isSame(as:words:guards:)``; a card with no known content is never the same.
    public func isSame(as other: ContentState, words: CardWords, guards: GuardSet = .all) -> Bool {
        guard let self else { return false }
        return self.isSame(as: other, words: words, guards: guards)
    }
}
