import FleetCore

/// Questions when several instances share a database (contract 8.4): a hook may long-poll one instance
/// while the phone answers through another, and the app may ask any of them.
///
/// Each instance adopts the questions the others store (notified, or at the next lease round when a
/// notification was missed) and wakes its own waiters; a client asking about a question this instance
/// has not heard of yet makes it read the store first, rather than answering 404.
extension ControlPlaneService {
    /// The shared fleet's revision this instance has read up to (-1: not yet loaded; alone: always -1).
    public var loadedFleetRevision: Int64 { coordination.fleetRevision }

    /// Questions other instances stored, as stored now (nil: forgotten there). Hold the lock.
    func adoptQuestions(_ stored: [QuestionID: Question?]) async {
        guard !stored.isEmpty else { return }
        await carryOut(questions.adopt(stored, at: now))
    }

    /// A commit another instance beat to some of its questions (``StoreError/conflict``): takes those as
    /// they are stored. Returns them (empty: the commit failed for another reason). Hold the lock.
    @discardableResult
    func adoptQuestionsSettledElsewhere(_ error: StoreError) async -> [QuestionID: Question] {
        let settled = error.conflict?.settledQuestions ?? [:]
        await adoptQuestions(settled.mapValues { $0 })
        return settled
    }

    /// The question `id`; sharing a database, one this instance has not heard of is looked for in the store
    /// first (its client may be quicker than the notification).
    public func knownQuestion(_ id: QuestionID) async -> Question? {
        if let question = questions[id] { return question }
        guard dependencies.coordinator != nil else { return nil }
        await catchUpWithFleet()
        return questions[id]
    }

    /// Returns once this instance has read everything the others committed before the call: runs a reload
    /// now, or waits for the one running to end and the one owed after it.
    func catchUpWithFleet() async {
        guard dependencies.coordinator != nil else { return }
        guard coordination.isReloadingFleet else { return await reloadFleet() }
        coordination.isFleetReloadOwed = true
        await withCheckedContinuation { coordination.fleetReloadWaiters.append($0) }
    }
}
