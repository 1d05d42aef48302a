import ControlPlane
import FleetCore
import Foundation
import StoreSQL

/// The rules instances sharing the database keep in it, checked in each commit's transaction before its
/// writes: `report_seqs`, the last `LFG-Report-Seq` taken per session, so the order of one session's
/// reports holds whichever instance each reaches (an in-process map per instance let a late resend through
/// on an instance that never saw the later report); and "first answer wins" for questions.
enum SharedWriteRules {
    /// Takes every `.takeReportSeq` of `writes` (and forgets the numbers of deleted sessions), and locks the
    /// questions they put, inside the caller's transaction, before the other writes; throws a
    /// ``StoreConflict`` naming each stale number and settled question (the transaction then rolls back whole).
    ///
    /// The upsert is one statement, so instances taking numbers for one session at once queue on its row
    /// and each sees the other's committed number. Its condition is ``ReportSequence/isStale(_:after:)``
    /// turned around (taken: no number yet, 1, or above the last); `ReportSeqStoreTests` holds the two equal.
    static func apply(_ writes: [StoreWrite], account: AccountID, on connection: PostgresConnection) throws(StoreError) {
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
        try lockQuestions(writes, account: account, on: connection, into: &conflict)
        if !conflict.isEmpty { throw .conflict(conflict) }
    }

    /// Locks the stored row of every question `writes` put (so instances resolving one question at once
    /// queue on it) and names each settled one it would replace with a different one: the first answer,
    /// expiry or cancellation committed wins, whichever instance took it.
    private static func lockQuestions(
        _ writes: [StoreWrite], account: AccountID, on connection: PostgresConnection, into conflict: inout StoreConflict
    ) throws(StoreError) {
        let decoder = JSONDecoder()
        for write in writes {
            guard case .putQuestion(let question) = write else { continue }
            var stored: Question?
            try connection.run(
                "SELECT question FROM questions WHERE account_id = ?1 AND id = ?2 FOR UPDATE",
                [.text(account.rawValue), .text(question.id.rawValue)]
            ) { row throws(StoreError) in
                do { stored = try decoder.decode(Question.self, from: Data(row.text(0).utf8)) } catch {
                    throw StoreError(operation: "read question \(question.id)", message: "\(error)")
                }
            }
            if let stored, StoreConflict.replacesSettled(write, stored: stored) { conflict.settledQuestions[question.id] = stored }
        }
    }
}
