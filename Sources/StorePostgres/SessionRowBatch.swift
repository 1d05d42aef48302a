import ControlPlane
import FleetCore
import StoreSQL

/// Every session one commit puts, written to PostgreSQL in one statement.
///
/// Why: each statement is a round trip to the server. Under ingest load (bench/ingest.sh) a group commit
/// put dozens of sessions one statement each, and those round trips, more than the commit's flush, bounded
/// PUT/s. (SQLite runs in the process: it keeps one statement per write.)
enum SessionRowBatch {
    /// The sessions `writes` put (each once, with its last report, in the order of its first put) and every
    /// other write, in order; nil when `writes` puts fewer than two sessions or also deletes one (a delete's
    /// order against the puts matters).
    static func split(_ writes: [StoreWrite]) -> (sessions: [(sid: SessionID, report: SessionReport)], others: [StoreWrite])? {
        var sessions: [(sid: SessionID, report: SessionReport)] = []
        var positions: [SessionID: Int] = [:]
        var others: [StoreWrite] = []
        for write in writes {
            switch write {
            case .putSession(let sid, let report):
                if let position = positions[sid] {
                    sessions[position].report = report
                } else {
                    positions[sid] = sessions.count
                    sessions.append((sid, report))
                }
            case .deleteSession: return nil
            default: others.append(write)
            }
        }
        return sessions.count >= 2 ? (sessions, others) : nil
    }

    /// Puts `sessions` (distinct ids) into `account`'s rows in one statement, as ``StoreTables`` puts one.
    static func put(
        _ sessions: [(sid: SessionID, report: SessionReport)], account: AccountID, on connection: PostgresConnection
    ) throws(StoreError) {
        let reports = try sessions.map { session throws(StoreError) in try StoreTables.sessionRow(session.report) }
        try connection.run(
            "INSERT INTO sessions (account_id, sid, report) SELECT ?1, row.sid, row.report "
                + "FROM unnest(?2::text[], ?3::text[]) AS row(sid, report) "
                + "ON CONFLICT (account_id, sid) DO UPDATE SET report = excluded.report",
            [
                .text(account.rawValue), .text(FleetChangeLog.arrayLiteral(sessions.map(\.sid.rawValue))),
                .text(FleetChangeLog.arrayLiteral(reports)),
            ]
        ) { _ in }
    }
}
