extension ContentState {
    /// Whether two states render the same card: counts, `more`, each row's sid, title, state and since, and
    /// the question shown.
    ///
    /// `updatedAt` never takes part: it moves every tick, and comparing it made every 2 s tick a push
    /// (guard `updated-at-excluded`). The elapsed labels count up locally, so they need no push either.
    public func isSame(as other: ContentState, guards: GuardSet = .all) -> Bool {
        guard working == other.working, needsInput == other.needsInput, more == other.more,
            rows == other.rows, question == other.question
        else { return false }
        return guards.isOn(.updatedAtExcluded) || updatedAt == other.updatedAt
    }
}

extension Optional where Wrapped == ContentState {
    /// A card adopted with no known content is never "the same": the next tick pushes current content.
    public func isSame(as other: ContentState, guards: GuardSet = .all) -> Bool {
        guard let self else { return false }
        return self.isSame(as: other, guards: guards)
    }
}
