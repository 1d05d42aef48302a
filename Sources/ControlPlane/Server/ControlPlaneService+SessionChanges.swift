import FleetCore
import Synchronization

extension ControlPlaneService {
    /// Runs one session change (`PUT`/`PATCH`) with every other change that queues while the lock is
    /// taken: the first of a group waits for the lock, then folds the whole group into one transaction
    /// (``SessionChangeGroup``), so under load one commit and one trip to the store serve many requests.
    ///
    /// Every answer still waits for its commit: nothing is acknowledged before it is in the store, and a
    /// failed commit fails every request of its group with the store's error, changing nothing.
    ///
    /// Not on the actor: queueing and waiting go through the queue's own lock, so only a group's leader
    /// makes the trip onto the actor (under ingest load, bench/ingest.sh, every member used to hop on to
    /// queue, again to pick its answer up, and off again).
    nonisolated func changeSession(_ change: SessionChangeGroup.Change) async throws(ServiceError) -> SessionListing {
        let (ticket, isLeader) = sessionChanges.withLock { $0.enqueue(change) }
        if isLeader { await commitQueuedSessionChanges() }
        let answer = await withCheckedContinuation { continuation in
            sessionChanges.withLock { $0.answer(for: ticket, orWait: continuation) }
        }
        return try answer.get()
    }

    /// A leader's part: takes the service's lock, then every change queued by then, and commits them.
    private func commitQueuedSessionChanges() async {
        await acquire()
        await commit(sessionChanges.withLock { $0.takeGroup() })
        release()
    }

    /// Returns once at least `count` session changes wait for the next group commit (so a test knows
    /// which requests a group holds).
    public nonisolated func waitForQueuedSessionChanges(_ count: Int) async {
        await withCheckedContinuation { continuation in
            sessionChanges.withLock { $0.notify(whenLength: count, continuation) }
        }
    }

    /// Folds `members` into one commit, keeps the result only once committed, then answers each member.
    /// Hold the lock.
    ///
    /// Sharing a database, the store keeps the report numbers and first-answer-wins: when another instance
    /// took a later number for a session first, or settled a question the group would cancel, the store
    /// refuses the whole commit and names them, and the group is folded again with that member answered as
    /// the late resend it is and the question as stored (at most ``sequencedAttempts`` times).
    private func commit(_ members: [(ticket: Int, change: SessionChangeGroup.Change)]) async {
        let at = now
        let isShared = dependencies.coordinator != nil
        var known = isShared ? [:] : reportSeqs
        var storedReports: [SessionID: SessionReport] = [:]
        var attempt = 0
        while true {
            attempt += 1
            var group = SessionChangeGroup(book: questions, isSequencedByStore: isShared)
            // Merged only after a refusal: merging copies every session, and a group commit is per request
            // batch under load (its cost grew with the fleet, not with the group).
            let sessions = storedReports.isEmpty ? fleet.sessions : fleet.sessions.merging(storedReports) { _, stored in stored }
            let outcomes = members.map { group.take($0.change, sessions: sessions, reportSeqs: known, at: at) }
            do {
                if !group.writes.isEmpty { try await dependencies.store.commit(group.writes) }
            } catch {
                if let conflict = error.conflict, attempt < Self.sequencedAttempts {
                    for (sid, stale) in conflict.staleReports {
                        known[sid] = stale.lastSeq
                        if let report = stale.report { storedReports[sid] = report }
                    }
                    // A question the group would cancel was settled elsewhere first: take it as stored.
                    await adoptQuestionsSettledElsewhere(error)
                    continue
                }
                sessionChanges.withLock { queue in
                    for (member, outcome) in zip(members, outcomes) {
                        if case .refused(let refusal) = outcome {
                            queue.answer(member.ticket, .failure(refusal))
                        } else {
                            queue.answer(member.ticket, .failure(.store(error)))
                        }
                    }
                }
                return
            }
            await keep(group, members: members, outcomes: outcomes, at: at)
            return
        }
    }

    /// How many times a group is folded again after the shared store refused it (a stale number, a settled
    /// question). Each refusal names every conflict, so a second attempt succeeds unless more were made
    /// elsewhere meanwhile.
    static let sequencedAttempts = 4

    /// Keeps a committed group in memory, carries out its question effects, and answers each member.
    private func keep(
        _ group: SessionChangeGroup, members: [(ticket: Int, change: SessionChangeGroup.Change)],
        outcomes: [SessionChangeGroup.Outcome], at: UnixTime
    ) async {
        for (sid, report) in group.changed { fleet.put(sid, report, heardAt: at) }
        if dependencies.coordinator == nil { reportSeqs.merge(group.seqs) { _, taken in taken } }
        questions = group.book
        await carryOut(group.questionEffects)
        // An archived session leaves the list: a removal event.
        // One clock read and one set of down hosts for every listing of the group.
        let instant = listingInstant()
        for (sid, report) in group.changed { publishSession(sid, listing: listed(sid, report, at: instant)) }
        if !group.changed.isEmpty {
            noteChange()
            noteWidgetChange()
        }
        let answers = zip(members, outcomes).map { member, outcome -> (Int, SessionChangeQueue.Answer) in
            switch outcome {
            case .changed(let sid, let report), .unchanged(let sid, let report):
                (member.ticket, .success(listing(sid, report, at: instant)))
            case .refused(let refusal):
                (member.ticket, .failure(refusal))
            }
        }
        sessionChanges.withLock { queue in for (ticket, answer) in answers { queue.answer(ticket, answer) } }
    }
}
