import FleetCore

extension FleetActivityController {
    /// The words the app puts back on a card a privacy push just wrote (contract 8.3), or nil when there is
    /// nothing to put back (the card carries words, has no rows, or the app knows none of its sessions).
    ///
    /// The result is the pushed state with titles from the app's own reduction (``ContentState/withWords(from:)``):
    /// counts, phases, ids and times stay the server's, so the server, comparing what it pushed, sees no change
    /// (``ContentState/isSame(as:words:guards:)``) and the two writers never fight.
    public func restoringWords(to card: FleetActivity, model: SessionModel, now: UnixTime, guards: GuardSet = .all)
        -> ContentState?
    {
        let pushed = card.content
        guard !pushed.rows.isEmpty || pushed.question != nil, pushed.isWordless else { return nil }
        let local = FleetReducer.reduce(
            model.filteredSessions, previousSince: since, hiddenDirs: model.hiddenDirs, now: now, guards: guards)
        var restored = pushed.withWords(from: local.contentState)
        guard restored != pushed else { return nil }
        // A push's `timestamp` is whole seconds; iOS ignores a push older than the card's last write, so the
        // app's write must not claim a later time than the push it answers (or the next push in that second
        // would be dropped).
        restored.updatedAt = pushed.updatedAt.rounded(.down)
        return restored
    }
}
