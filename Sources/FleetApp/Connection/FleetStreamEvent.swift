import FleetCore
import Foundation

/// What one event of `GET /api/events` means to the app.
///
/// The server sends `session` (a listing, as in `GET /api/sessions`, or `{"sid", "deleted": true}`),
/// `question` (a ``Question``) and `log` (a decision-log line, for the dashboard). Anything else, or a
/// body that does not decode, is ``ignored(_:)`` with the reason: a newer server must not break the list.
public enum FleetStreamEvent: Hashable, Sendable {
    /// A session changed: its current listing.
    case session(SessionsReply.Session)
    /// A session was deleted or archived.
    case sessionRemoved(SessionID)
    /// A question was asked, answered, cancelled or expired.
    case question(Question)
    /// Nothing for the app (a log line, an unknown event, a body it cannot read), and why.
    case ignored(String)

    /// Reads `event`.
    public init(_ event: ServerSentEvent) {
        let data = Data(event.data.utf8)
        switch event.name {
        case "session":
            if let removed = try? JSONDecoder().decode(Removed.self, from: data), removed.deleted {
                self = .sessionRemoved(removed.sid)
            } else if let session = try? JSONDecoder().decode(SessionsReply.Session.self, from: data) {
                self = .session(session)
            } else {
                self = .ignored("a session event the app cannot read")
            }
        case "question":
            if let question = try? JSONDecoder().decode(Question.self, from: data) {
                self = .question(question)
            } else {
                self = .ignored("a question event the app cannot read")
            }
        default:
            self = .ignored("event '\(event.name)'")
        }
    }

    struct Removed: Decodable {
        var sid: SessionID
        var deleted: Bool
    }
}

extension SessionModel {
    /// Applies one streamed session change: the listing replaces the session's report, and its verdict
    /// says whether its host is down (`unknown`) or answering again.
    public mutating func applyStreamed(_ session: SessionsReply.Session) {
        upsert(session.report, for: session.sid, since: session.since)
        if session.displayState == .unknown {
            setHost(session.report.host, health: .knownDown)
        } else if session.displayState != nil {
            setHost(session.report.host, health: .up)
        }
    }
}
