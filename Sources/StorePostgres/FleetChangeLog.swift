import ControlPlane
import FleetCore
import Synchronization

/// `fleet_changes`: what each commit changed in the shared fleet (a session, a host, a question) under
/// the fleet revision it moved to, and which instance wrote it, so the other instances read only what
/// changed instead of the whole fleet (50,000 sessions per notification did not scale).
enum FleetChangeLog {
    /// The shared rows `writes` change, as (kind, key); empty when they change none.
    static func entries(of writes: [StoreWrite]) -> [(kind: String, key: String)] {
        writes.flatMap { write -> [(kind: String, key: String)] in
            switch write {
            case .putSession(let sid, _), .deleteSession(let sid): return [("session", sid.rawValue)]
            case .putHost(let host, _): return [("host", host.rawValue)]
            case .putQuestion(let question): return [("question", question.id.rawValue)]
            case .deleteQuestions(let ids): return ids.map { ("question", $0.rawValue) }
            default: return []
            }
        }
    }

    /// A PostgreSQL text array literal (`{"a","b"}`): every element quoted, `\` and `"` escaped.
    static func arrayLiteral(_ values: [String]) -> String {
        let quoted = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}

/// Round trips to PostgreSQL made by this process (every statement, prepare, BEGIN and COMMIT), for
/// `lfg_database_round_trips_total` on `GET /metrics`.
public enum PostgresRoundTrips {
    private static let count = Atomic<Int>(0)

    public static var total: Int { count.load(ordering: .relaxed) }

    static func note() { count.add(1, ordering: .relaxed) }
}
