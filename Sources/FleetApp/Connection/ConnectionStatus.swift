import FleetCore

/// How the app is connected to its server, as the list shows it: never "live" unless it is.
public enum ConnectionStatus: Hashable, Sendable {
    /// In the background: nothing is open, by design.
    case paused
    /// Foregrounded, first answer not in yet.
    case connecting
    /// The event stream is open: changes arrive as they happen.
    case live(since: UnixTime)
    /// The stream dropped; the app is trying again and has not yet heard whether the server answers.
    case reconnecting(since: UnixTime, reason: String)
    /// The stream is down but fetches answer: the list is as of `lastFetch`, refreshed every few seconds.
    case polling(since: UnixTime, lastFetch: UnixTime, reason: String)
    /// Neither the stream nor a fetch gets through since `since`; what the list shows is from `lastContact`.
    case unreachable(since: UnixTime, lastContact: UnixTime?, reason: String)
    /// The server refused this phone's credential (401): it was revoked or is wrong. No retries until the
    /// settings change.
    case refused(String)

    /// Whether the list can be trusted as current (only while the stream is open).
    public var isLive: Bool { if case .live = self { true } else { false } }

    /// One short line for the top of the list ("Live", "Server unreachable", ...).
    public var headline: String {
        switch self {
        case .paused: "Paused"
        case .connecting: "Connecting…"
        case .live: "Live"
        case .reconnecting: "Reconnecting…"
        case .polling: "Live updates paused"
        case .unreachable: "Server unreachable"
        case .refused: "Not signed in"
        }
    }

    /// What it means for what the list shows, with the age of the data at `now` (nil when nothing to add).
    public func detail(now: UnixTime) -> String? {
        switch self {
        case .paused, .connecting, .live:
            return nil
        case .reconnecting(_, let reason):
            return reason
        case .polling(_, let lastFetch, let reason):
            return "Refreshing every few seconds instead (\(reason)); last refresh \(ElapsedLabel.ago(lastFetch, now: now))."
        case .unreachable(let since, let lastContact, let reason):
            let shown = lastContact.map { "what it knew \(ElapsedLabel.ago($0, now: now))" } ?? "nothing yet"
            return "No answer for \(ElapsedLabel.text(since: since, now: now)) (\(reason)). Showing \(shown)."
        case .refused(let reason):
            return reason
        }
    }
}

extension ElapsedLabel {
    /// "just now" under a minute, else "5m ago" in ``ElapsedLabel/text(since:now:)``'s units.
    static func ago(_ instant: UnixTime, now: UnixTime) -> String {
        now - instant < 60 ? "just now" : "\(text(since: instant, now: now)) ago"
    }
}
