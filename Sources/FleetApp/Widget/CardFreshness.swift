import FleetCore

/// How the widget draws a card iOS marked stale (its `stale-date` passed with nothing newer): honestly.
///
/// A stale card may show counts from hours ago. It must not look live: no elapsed timers counting up as
/// if the sessions were watched, a muted accent instead of green or amber, and one line that says what
/// to do. The widget (FleetAppApple) only renders this; the decision is here, tested on Linux.
public struct CardFreshness: Hashable, Sendable {
    /// Whether the card is stale (`ActivityViewContext.isStale`).
    public let isStale: Bool

    public init(isStale: Bool) { self.isStale = isStale }

    /// The line drawn under the header of a stale card; nil for a fresh one.
    public var statusLine: String? { isStale ? Self.staleLine : nil }

    /// Whether elapsed labels count up (only a fresh card's times mean anything now).
    public var showsLiveElapsed: Bool { !isStale }

    /// Whether the accent (dot, bar, keyline) is drawn grey instead of green or amber.
    public var mutesAccent: Bool { isStale }

    /// The header's "Active" word: a stale card says the count is from the last update.
    public var activeLabel: String { isStale ? "Active (last known)" : "Active" }

    /// What a stale card says: it is out of date, and opening the app brings it back.
    public static let staleLine = "Not up to date. Open LFG to refresh."
}
