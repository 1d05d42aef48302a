import FleetCore

/// ActivityKit's id of one Live Activity (`Activity.id`).
public struct ActivityID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// How a card started from the app can be reached by the server (ActivityKit's `PushType?`).
public enum ActivityPushType: Hashable, Sendable {
    /// `pushType: nil`: updates only from the app. Such a card freezes the moment the app suspends.
    case none
    /// `.token`: ActivityKit mints an update token the server can push to.
    case token
    /// `.channel(id)` (iOS 18): the card follows a broadcast channel and has no per-card token.
    case channel(String)
}

/// When an ended card leaves the screen (ActivityKit's `ActivityUIDismissalPolicy`).
public enum DismissalPolicy: Hashable, Sendable {
    /// Removed right away.
    case immediate
    /// Stays on the lock screen up to 4 hours.
    case `default`
    /// Removed at this Unix time, or 4 hours after the end, whichever is first.
    case after(UnixTime)
}

/// Where one card is in its life (ActivityKit's `ActivityState`).
public enum ActivityLifecycleState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Visible and accepts updates.
    case active
    /// Its stale date passed without a newer update; still updatable.
    case stale
    /// Ended (by the app, a push, the user or the system); may still be visible; takes no more updates.
    case ended
    /// Ended and removed from view.
    case dismissed
    /// Scheduled to start later (iOS 26); not started yet.
    case pending

    /// Whether the card is alive: it can be updated and its update token exists.
    public var isLive: Bool { self == .active || self == .stale }
}

/// One fleet card as the app sees it through `Activity<LFGFleetAttributes>.activities`.
public struct FleetActivity: Hashable, Sendable {
    public var id: ActivityID
    public var content: ContentState
    public var state: ActivityLifecycleState
    /// When iOS marks the card stale unless newer content arrives first (`ActivityContent.staleDate`).
    public var staleDate: UnixTime?

    public init(id: ActivityID, content: ContentState, state: ActivityLifecycleState = .active, staleDate: UnixTime? = nil) {
        self.id = id
        self.content = content
        self.state = state
        self.staleDate = staleDate
    }

    /// Whether the card is drawn as stale at `now` (the widget's `context.isStale`): its stale date passed,
    /// live or ended alike. A stale card says so instead of pretending to be current.
    public func isMarkedStale(at now: UnixTime) -> Bool {
        state == .stale || (staleDate.map { now >= $0 } ?? false)
    }

    /// The card as FleetCore's dedupe rule sees it.
    public var dedupeCandidate: DedupeCandidate { DedupeCandidate(id: id.rawValue, updatedAt: content.updatedAt) }
}

extension Array where Element == FleetActivity {
    /// The cards that are alive, with the one FleetCore's dedupe rule keeps.
    public var liveCards: [FleetActivity] { filter { $0.state.isLive } }

    /// The survivor among the live cards by FleetCore's dedupe rule (newest `updatedAt`, ties on larger id).
    public var survivor: FleetActivity? {
        let live = liveCards
        guard let kept = FleetActivityDedupe.partition(live.map(\.dedupeCandidate)).survivor else { return nil }
        return live.first { $0.id.rawValue == kept.id }
    }
}

/// Why ActivityKit refused to start a card (a subset of `ActivityAuthorizationError`).
public enum ActivityRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The person switched Live Activities off for the app; only Settings can turn them back on.
    case denied
    /// The app is not in the foreground; a card can only be started from the foreground (or by push).
    case visibility
    /// The app already runs as many activities as iOS allows; end one first.
    case targetMaximumExceeded
    /// Anything else ActivityKit reported, described.
    case other(String)

    public var description: String {
        switch self {
        case .denied: "Live Activities are off for LFG; turn them on in Settings > LFG"
        case .visibility: "a card can only be started while the app is in the foreground; the server will push-start it"
        case .targetMaximumExceeded: "too many Live Activities are running; end one before starting another"
        case .other(let text): "ActivityKit refused the card: \(text)"
        }
    }
}
