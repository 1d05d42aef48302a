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

    public init(staleReports: [SessionID: StaleReport] = [:]) {
        self.staleReports = staleReports
    }

    public var isEmpty: Bool { staleReports.isEmpty }
}

extension StoreError {
    /// A refusal because another writer was first (see ``StoreConflict``).
    public static func conflict(_ conflict: StoreConflict) -> StoreError {
        var error = StoreError(
            operation: "commit", message: "another instance was first for sessions "
                + conflict.staleReports.keys.map(\.rawValue).sorted().joined(separator: ", "))
        error.conflict = conflict
        return error
    }
}
