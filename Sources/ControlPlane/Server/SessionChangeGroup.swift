import FleetCore

/// The session changes (`PUT` and `PATCH /api/sessions/{sid}`) that arrived while the store was busy,
/// folded in arrival order into one commit (group commit).
///
/// Each change sees the reports the changes before it in the group left, exactly as if they had been
/// committed one by one. Nothing here touches the service's memory: the service keeps the result only
/// after the group's one commit returned, and on a failed commit every member fails and nothing changed.
struct SessionChangeGroup {
    /// One request's change: a new report from the current one (nil when the session is unknown).
    struct Change: Sendable {
        var sid: SessionID
        /// The request's `LFG-Report-Seq` (``ReportSequence``), if it sent one.
        var seq: Int?
        var change: @Sendable (SessionReport?) throws(ServiceError) -> SessionReport
    }

    /// What became of one change.
    enum Outcome: Equatable {
        /// The report to store; answered once the group is committed.
        case changed(SessionID, SessionReport)
        /// A late resend (older `seq`): nothing changes; answered with the report as it is.
        case unchanged(SessionID, SessionReport)
        /// Refused on its own (unknown session for a `PATCH`, a bad patch); the rest of the group goes on.
        case refused(ServiceError)
    }

    /// The reports as the group leaves them, by session.
    private(set) var reports: [SessionID: SessionReport] = [:]
    /// The last `seq` taken per session in this group.
    private(set) var seqs: [SessionID: Int] = [:]
    /// Every write of the group, in order: the one commit. A session changed more than once has one
    /// `putSession`, in the place of its first change, holding its last report.
    private(set) var writes: [StoreWrite] = []
    /// Where each session's `putSession` is in ``writes``.
    private var sessionWrites: [SessionID: Int] = [:]
    /// The question lifecycle's effects of every change, in order, carried out after the commit.
    private(set) var questionEffects: [QuestionEffect] = []
    /// The questions as the group leaves them.
    private(set) var book: QuestionBook
    /// The sessions changed, in order (a session changed twice appears twice).
    private(set) var changed: [(sid: SessionID, report: SessionReport)] = []

    /// Whether the store keeps the report numbers (several instances on one database): each number taken
    /// is then also a `.takeReportSeq` write, which the store refuses when another instance took a later one.
    private let isSequencedByStore: Bool

    /// - Parameters:
    ///   - book: the service's questions now (copied once for the whole group).
    ///   - isSequencedByStore: see ``isSequencedByStore``.
    init(book: QuestionBook, isSequencedByStore: Bool = false) {
        self.book = book
        self.isSequencedByStore = isSequencedByStore
    }

    /// Folds one change in. `sessions` and `reportSeqs` are the service's committed state (sharing a
    /// database: the numbers and reports the store answered a refused attempt with); the group's own
    /// earlier changes take precedence over them.
    mutating func take(
        _ change: Change, sessions: [SessionID: SessionReport], reportSeqs: [SessionID: Int], at now: UnixTime
    ) -> Outcome {
        let current = reports[change.sid] ?? sessions[change.sid]
        if let seq = change.seq, let current,
            ReportSequence.isStale(seq, after: seqs[change.sid] ?? reportSeqs[change.sid])
        {
            return .unchanged(change.sid, current)
        }
        let report: SessionReport
        do throws(ServiceError) { report = try change.change(current) } catch { return .refused(error) }
        let asked = book.promptReported(
            change.sid, report.archived ? nil : report.prompt, isSessionGone: report.archived, at: now)
        if isSequencedByStore, let seq = change.seq { writes.append(.takeReportSeq(change.sid, seq)) }
        // The group commits as one transaction, so nothing can read the session's row between two of its
        // changes: writing only the last report leaves the store as writing each in turn would, for one
        // encoding and one statement (under ingest load a group often holds a session several times).
        if let index = sessionWrites[change.sid] {
            writes[index] = .putSession(change.sid, report)
        } else {
            sessionWrites[change.sid] = writes.count
            writes.append(.putSession(change.sid, report))
        }
        writes += asked.writes
        questionEffects += asked
        reports[change.sid] = report
        if let seq = change.seq { seqs[change.sid] = seq }
        changed.append((change.sid, report))
        return .changed(change.sid, report)
    }
}
