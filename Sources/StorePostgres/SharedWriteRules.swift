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
    /// Each upsert is one statement, so instances taking numbers for one session at once queue on its row
    /// and each sees the other's committed number. Its condition is ``ReportSequence/isStale(_:after:)``
    /// turned around (taken: no number yet, 1, or above the last); `ReportSeqStoreTests` holds the two equal.
    /// A commit's numbers are taken in one statement (``ReportSeqTakes``) unless it cannot be folded.
    static func apply(_ writes: [StoreWrite], account: AccountID, on connection: PostgresConnection) throws(StoreError) {
        var conflict = StoreConflict()
        if let folded = ReportSeqTakes.fold(writes) {
            try take(folded, account: account, on: connection, into: &conflict)
        } else {
            try takeOneByOne(writes, account: account, on: connection, into: &conflict)
        }
        try lockQuestions(writes, account: account, on: connection, into: &conflict)
        if !conflict.isEmpty { throw .conflict(conflict) }
    }

    /// The SQL condition under which a session's stored number (`report_seqs.seq`) lets a commit take
    /// `first` (an SQL expression: the commit's first number for the session): 1 starts over, anything
    /// else must be above the stored one. ``ReportSequence/isStale(_:after:)`` turned around; both
    /// statements below use it.
    private static func takesNumber(first: String) -> String { "(\(first) = 1 OR report_seqs.seq < \(first))" }

    /// Takes every session's numbers in one upsert (its first number checked, its last kept); only when
    /// some are stale, a second statement reads their stored numbers and reports for the conflict. A
    /// stale number's row is left as it was, though locked to the end of the transaction (ON CONFLICT
    /// DO UPDATE locks the rows its condition turns down), so what the second statement reads stays true.
    private static func take(
        _ folded: ReportSeqTakes, account: AccountID, on connection: PostgresConnection, into conflict: inout StoreConflict
    ) throws(StoreError) {
        guard !folded.takes.isEmpty else { return }
        var taken: Set<SessionID> = []
        try connection.run(
            """
            WITH take AS (SELECT * FROM unnest(?2::text[], ?3::bigint[], ?4::bigint[]) AS take(sid, first, last))
            INSERT INTO report_seqs (account_id, sid, seq) SELECT ?1, take.sid, take.last FROM take ORDER BY take.sid
            ON CONFLICT (account_id, sid) DO UPDATE SET seq = excluded.seq
            WHERE \(takesNumber(first: "(SELECT first FROM take WHERE take.sid = excluded.sid)"))
            RETURNING sid
            """,
            [
                .text(account.rawValue), .text(FleetChangeLog.arrayLiteral(folded.takes.map(\.sid.rawValue))),
                .text(FleetChangeLog.arrayLiteral(folded.takes.map { String($0.first) })),
                .text(FleetChangeLog.arrayLiteral(folded.takes.map { String($0.last) })),
            ]
        ) { row in taken.insert(SessionID(row.text(0))) }
        let stale = folded.takes.filter { !taken.contains($0.sid) }
        guard !stale.isEmpty else { return }
        let decoder = JSONDecoder()
        try connection.run(
            "SELECT report_seqs.sid, report_seqs.seq, sessions.report FROM report_seqs LEFT JOIN sessions "
                + "ON sessions.account_id = report_seqs.account_id AND sessions.sid = report_seqs.sid "
                + "WHERE report_seqs.account_id = ?1 AND report_seqs.sid = ANY(?2::text[])",
            [.text(account.rawValue), .text(FleetChangeLog.arrayLiteral(stale.map(\.sid.rawValue)))]
        ) { row throws(StoreError) in
            let sid = SessionID(row.text(0))
            conflict.staleReports[sid] = StoreConflict.StaleReport(
                lastSeq: Int(row.integer(1)), report: try storedReport(row.optionalText(2), sid: sid, decoder))
        }
    }

    /// Takes each number in its own statement, in the order written (a commit that also deletes sessions,
    /// or numbers one session out of order: ``ReportSeqTakes/fold(_:)``).
    private static func takeOneByOne(
        _ writes: [StoreWrite], account: AccountID, on connection: PostgresConnection, into conflict: inout StoreConflict
    ) throws(StoreError) {
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
                    + "DO UPDATE SET seq = excluded.seq WHERE \(takesNumber(first: "excluded.seq")) "
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
                stale.report = try storedReport(row.optionalText(1), sid: sid, decoder)
            }
            conflict.staleReports[sid] = stale
        }
    }

    private static func storedReport(_ text: String?, sid: SessionID, _ decoder: JSONDecoder) throws(StoreError)
        -> SessionReport?
    {
        guard let text else { return nil }
        do { return try decoder.decode(SessionReport.self, from: Data(text.utf8)) } catch {
            throw StoreError(operation: "read session \(sid)", message: "\(error)")
        }
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
