import FleetCore

/// Why a shared store refused a commit as a whole (several instances on one database): another instance
/// committed something first that this commit would have overwritten. Nothing of the commit took effect;
/// the writer folds what the store says into its picture and decides again.
public struct StoreConflict: Hashable, Sendable {
    /// Sessions whose `LFG-Report-Seq` taken by the store is not below the one this commit tried to take
    /// (``ReportSequence``): the last number taken, and the session's stored report (nil: none stored).
    public var staleReports: [SessionID: StaleReport]

    public struct StaleReport: Hashable, Sendable {
        public var lastSeq: Int
        public var report: SessionReport?

        public init(lastSeq: Int, report: SessionReport?) {
            self.lastSeq = lastSeq
            self.report = report
        }
    }

    /// Questions another writer resolved first, as stored: a resolved question is never replaced by a
    /// different one, so the first answer (or expiry, or cancellation) stored wins across instances.
    public var settledQuestions: [QuestionID: Question]

    public init(staleReports: [SessionID: StaleReport] = [:], settledQuestions: [QuestionID: Question] = [:]) {
        self.staleReports = staleReports
        self.settledQuestions = settledQuestions
    }

    public var isEmpty: Bool { staleReports.isEmpty && settledQuestions.isEmpty }

    /// Whether `write` would replace a question that is settled in the store by a different one.
    public static func replacesSettled(_ write: StoreWrite, stored: Question?) -> Bool {
        guard case .putQuestion(let question) = write, let stored, stored.state != .pending else { return false }
        return stored != question
    }
}

extension StoreError {
    /// A refusal because another writer was first (see ``StoreConflict``).
    public static func conflict(_ conflict: StoreConflict) -> StoreError {
        let names = conflict.staleReports.keys.map { "session \($0)" } + conflict.settledQuestions.keys.map { "question \($0)" }
        var error = StoreError(operation: "commit", message: "another instance was first for " + names.sorted().joined(separator: ", "))
        error.conflict = conflict
        return error
    }
}
