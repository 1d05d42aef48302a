import FleetCore

/// Who took away a card the app was tracking, as far as the app can tell from what iOS reports.
///
/// Only ``personDismissed`` is the app's news to give: the server must hear of it (`/ended`) so it holds
/// off push-starting a replacement for the same sessions. Every other end was caused by a writer or the
/// system, and reporting it as a client end makes the server forget the card that is really on screen
/// (and veto its sessions), so that card is never updated or ended again.
public enum CardEndCause: Hashable, Sendable {
    /// The person swiped the app's live card away: it went straight to dismissed still showing sessions.
    case personDismissed
    /// A writer ended it: its final content is the zeroed state every end push (and the app's own end) carries.
    case writerEnded
    /// Another live card has taken its place (push-started while the app slept, or kept by dedupe): the
    /// ended one is no longer the app's live card, whatever ended it.
    case superseded
    /// The system ended it (the 8-hour limit): ended but still shown, not dismissed by anyone.
    case systemEnded

    /// Classifies the end of card `id`, reported by `activityStateUpdates` as `state` with `finalContent`.
    ///
    /// - Parameter fleet: every fleet card iOS knows now; a live one other than `id` supersedes it.
    public static func of(
        _ id: ActivityID, state: ActivityLifecycleState, finalContent: ContentState, fleet: [FleetActivity]
    ) -> Self {
        if fleet.liveCards.contains(where: { $0.id != id }) { return .superseded }
        // A writer only ends a card on a trustworthy zero, and always with the zeroed state: an end the
        // server caused must never come back to it as a client end (the false `/ended` after a wake).
        if finalContent.activeTotal == 0 { return .writerEnded }
        return state == .dismissed ? .personDismissed : .systemEnded
    }

    /// Whether the server must be told (`POST /api/push/live-activity/ended`).
    public var isReportedToServer: Bool { self == .personDismissed }
}
