import ControlPlane
import FleetCore

/// One commit's report numbers (`.takeReportSeq`) folded per session, so ``SharedWriteRules`` takes them
/// all in one statement: a group commit under ingest load holds dozens of numbered PUTs, and a statement
/// each was a round trip each.
///
/// A session numbered several times in one commit (a group often holds a session several times) is taken
/// as its first number, checked against the stored one, and stored as its last: the same outcome as
/// taking each in turn, since each later number of the group follows the one before it (else no fold).
struct ReportSeqTakes: Equatable {
    struct Take: Equatable {
        var sid: SessionID
        /// The session's first number in the commit: the one the stored number can make stale.
        var first: Int
        /// Its last number in the commit: what the store keeps.
        var last: Int
    }

    /// One per session, ordered by session id (instances taking overlapping sessions lock their rows in
    /// one order, so they queue instead of deadlocking).
    var takes: [Take]

    /// The numbers `writes` take; nil when they cannot be taken in one statement as written: the commit
    /// deletes a session (its numbering starts over between two takes), or a session's later number is
    /// stale after its earlier one (each is then refused as written, one statement at a time).
    static func fold(_ writes: [StoreWrite]) -> ReportSeqTakes? {
        var bySession: [SessionID: Take] = [:]
        for write in writes {
            switch write {
            case .deleteSession: return nil
            case .takeReportSeq(let sid, let seq):
                if var take = bySession[sid] {
                    guard !ReportSequence.isStale(seq, after: take.last) else { return nil }
                    take.last = seq
                    bySession[sid] = take
                } else {
                    bySession[sid] = Take(sid: sid, first: seq, last: seq)
                }
            default: continue
            }
        }
        return ReportSeqTakes(takes: bySession.values.sorted { $0.sid.rawValue < $1.sid.rawValue })
    }
}
