import ControlPlane
import FleetCore
import Foundation
import StoreSQL

/// `report_seqs`: the last `LFG-Report-Seq` taken per session, kept by the database so the order of one
/// session's reports holds whichever instance each reaches (an in-process map per instance let a late
/// resend through on an instance that never saw the later report).
enum ReportSeqTable {
    /// Takes every `.takeReportSeq` of `writes` (and forgets the numbers of deleted sessions) inside the
    /// caller's transaction, before the other writes; throws a ``StoreConflict`` naming each stale one (the caller's transaction then rolls back whole).
    ///
    /// The upsert is one statement, so instances taking numbers for one session at once queue on its row
    /// and each sees the other's committed number. Its condition is ``ReportSequence/isStale(_:after:)``
    /// turned around (taken: no number yet, 1, or above the last); `ReportSeqTableTests` holds the two equal.
    static func take(_ writes: [StoreWrite], account: AccountID, on connection: PostgresConnection) throws(StoreError) {
        var conflict = StoreConflict()
        let decoder = JSONDecoder()
        for write in writes {
            if case .deleteSession(let sid) = write {
                // A deleted session's numbering starts over, as on one instance.
                try connection.run(
                    "DELETE FROM report_seqs WHERE account_id = ?1 AND sid = ?2", [.text(account.rawValue), .text(sid.rawValue)])
            }
            guard case .takeReportSeq(let sid, let seq) = write else { continue }
            let key: [SQLValue] = [.text(account.rawValue), .text(sid.rawValue)]
            var isTaken = false
            try connection.run(
                "INSERT INTO report_seqs (account_id, sid, seq) VALUES (?1, ?2, ?3) ON CONFLICT (account_id, sid) "
                    + "DO UPDATE SET seq = excluded.seq WHERE excluded.seq = 1 OR report_seqs.seq < excluded.seq "
                    + "RETURNING seq",
                key + [.integer(Int64(seq))]
            ) { _ in isTaken = true }
            guard !isTaken else { continue }
            var stale = StoreConflict.StaleReport(lastSeq: seq, report: nil)
            try connection.run(
                "SELECT report_seqs.seq, sessions.report FROM report_seqs LEFT JOIN sessions "
                    + "ON sessions.account_id = report_seqs.account_id AND sessions.sid = report_seqs.sid "
                    + "WHERE report_seqs.account_id = ?1 AND report_seqs.sid = ?2",
                key
            ) { row throws(StoreError) in
                stale.lastSeq = Int(row.integer(0))
                guard let text = row.optionalText(1) else { return }
                do { stale.report = try decoder.decode(SessionReport.self, from: Data(text.utf8)) } catch {
                    throw StoreError(operation: "read session \(sid)", message: "\(error)")
                }
            }
            conflict.staleReports[sid] = stale
        }
        if !conflict.isEmpty { throw .conflict(conflict) }
    }
}
