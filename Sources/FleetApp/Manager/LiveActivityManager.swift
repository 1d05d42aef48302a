import FleetCore

/// The token manager and the one-card rule, as a pure reducer.
///
/// It watches the activity sequences (as ``Event``s), keeps exactly one fleet card alive, hands each
/// token to the registration servers (the default one only) and retries failed registrations with
/// backoff. The driver carries out the ``Effect``s and feeds back answers and due retries.
public struct LiveActivityManager: Hashable, Sendable {
    /// Something the manager reacts to; each carries what the driver knows at that moment.
    public enum Event: Hashable, Sendable {
        /// The app launched: every fleet card iOS still has, and the retired per-session cards.
        case launched(fleet: [FleetActivity], retired: [ActivityID])
        /// `activityUpdates` yielded a card; `fleet` is every fleet card now.
        case activityArrived(ActivityID, fleet: [FleetActivity])
        /// `pushToStartTokenUpdates` yielded a token.
        case pushToStartTokenIssued(PushToken)
        /// A card's `pushTokenUpdates` yielded a token.
        case pushTokenIssued(ActivityID, PushToken)
        /// A card's `activityStateUpdates` yielded a state.
        case activityStateChanged(ActivityID, ActivityLifecycleState)
        /// The controller is about to end this card.
        case appWillEnd(ActivityID)
        /// A server answered a registration.
        case registrationAnswered(TokenRegistration, server: String, succeeded: Bool, at: UnixTime)
        /// Time passed; retries due by `at` go out.
        case retriesDue(at: UnixTime)
    }

    /// What the manager wants done.
    public enum Effect: Hashable, Sendable {
        case observeActivityUpdates
        case observePushToStartTokens
        case observeActivity(ActivityID)
        /// Cancel a card's token and state tasks; always before ending a card, so a late token of a card
        /// being ended can never supersede the survivor's on the server.
        case stopObservingActivity(ActivityID)
        case end(ActivityID, dismissal: DismissalPolicy)
        case endRetired(ActivityID)
        case register(TokenRegistration, server: String)
        /// A tracked card ended without the app ending it; the controller decides what that means.
        case noteEndedElsewhere(ActivityID)
    }

    struct Pending: Hashable, Sendable {
        var token: PushToken
        var owner: ActivityID?
        var failures = 0
        var retryAt: UnixTime?
        var isInFlight = false
    }

    /// The servers registrations go to (``AppConfiguration/registrationTargets(guards:)``).
    public let targets: [String]
    /// Guards this manager honours: `dedupe` (and the rest are for other parts).
    public let guards: GuardSet
    public let backoff: RegistrationBackoff
    /// Cards whose token and state sequences are observed.
    public private(set) var tracked: Set<ActivityID> = []
    /// Last accepted token per slot; persist it and pass it back on the next launch.
    public private(set) var sent: SentTokenCache
    var pending: [RegistrationSlot: Pending] = [:]

    public init(targets: [String], sent: SentTokenCache = SentTokenCache(), guards: GuardSet = .all,
                backoff: RegistrationBackoff = RegistrationBackoff()) {
        self.targets = targets
        self.sent = sent
        self.guards = guards
        self.backoff = backoff
    }

    /// When the earliest scheduled retry falls due, or nil.
    public var nextRetryAt: UnixTime? { pending.values.compactMap(\.retryAt).min() }

    /// Advances the manager by one event and returns the effects, in the order they must run.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .launched(let fleet, let retired):
            // The tombstone: a per-session card from an older build can only be reached while its type is
            // declared, so end every one of them once, at launch.
            var effects: [Effect] = retired.map { .endRetired($0) }
            effects += [.observeActivityUpdates, .observePushToStartTokens]
            return effects + keepOneCard(fleet)
        case .activityArrived(_, let fleet):
            return keepOneCard(fleet)
        case .pushToStartTokenIssued(let token):
            return offer(TokenRegistration(kind: .pushToStart, token: token), owner: nil)
        case .pushTokenIssued(let id, let token):
            guard tracked.contains(id) else { return [] }
            return offer(TokenRegistration(kind: .update, token: token), owner: id)
        case .activityStateChanged(let id, let state):
            // A card the app ends (or dedupe ends) is untracked first, so this is an end from elsewhere:
            // the person swiped it away, a push ended it, or the system expired it.
            guard !state.isLive, tracked.contains(id) else { return [] }
            return untrack(id) + [.noteEndedElsewhere(id)]
        case .appWillEnd(let id):
            return untrack(id)
        case .registrationAnswered(let registration, let server, let succeeded, let now):
            answer(registration, server: server, succeeded: succeeded, now: now)
            return []
        case .retriesDue(let now):
            return retry(dueBy: now)
        }
    }

    /// Dedupe: on every arrival (and at launch) keep the survivor by FleetCore's rule, ending the rest
    /// after cancelling their token tasks; start observing any live card not yet observed.
    mutating func keepOneCard(_ fleet: [FleetActivity]) -> [Effect] {
        let live = fleet.liveCards
        var effects: [Effect] = []
        var kept = live
        // Two cards on the lock screen, only the newest addressable, so the visible one is stale (guard `dedupe`).
        if guards.isOn(.dedupe), live.count > 1 {
            let partition = FleetActivityDedupe.partition(live.map(\.dedupeCandidate))
            let losers = Set(partition.losers.map { ActivityID($0.id) })
            for loser in partition.losers.map({ ActivityID($0.id) }) {
                effects += untrack(loser, always: true)
                effects.append(.end(loser, dismissal: .immediate))
            }
            kept = live.filter { !losers.contains($0.id) }
        }
        for card in kept where tracked.insert(card.id).inserted {
            effects.append(.observeActivity(card.id))
        }
        return effects
    }

    mutating func untrack(_ id: ActivityID, always: Bool = false) -> [Effect] {
        let wasTracked = tracked.remove(id) != nil
        pending = pending.filter { $0.value.owner != id }
        return wasTracked || always ? [.stopObservingActivity(id)] : []
    }

    /// Sends a token to every target unless that slot already wants it (a double-fired push-to-start
    /// token, a token in flight) or already accepted it (a re-attached card's unchanged token).
    mutating func offer(_ registration: TokenRegistration, owner: ActivityID?) -> [Effect] {
        var effects: [Effect] = []
        for server in targets {
            let slot = RegistrationSlot(server: server, kind: registration.kind)
            if pending[slot]?.token == registration.token { continue }
            if sent[slot] == registration.token {
                pending[slot] = nil
                continue
            }
            pending[slot] = Pending(token: registration.token, owner: owner, isInFlight: true)
            effects.append(.register(registration, server: server))
        }
        return effects
    }

    mutating func answer(_ registration: TokenRegistration, server: String, succeeded: Bool, now: UnixTime) {
        let slot = RegistrationSlot(server: server, kind: registration.kind)
        // An answer for a token the slot no longer wants (superseded, or its card ended) changes nothing.
        guard var entry = pending[slot], entry.token == registration.token else { return }
        if succeeded {
            sent[slot] = registration.token
            pending[slot] = nil
            return
        }
        entry.isInFlight = false
        entry.failures += 1
        entry.retryAt = now + backoff.delay(afterFailures: entry.failures)
        pending[slot] = entry
    }

    mutating func retry(dueBy now: UnixTime) -> [Effect] {
        var effects: [Effect] = []
        for slot in pending.keys.sorted(by: Self.slotOrder) {
            guard var entry = pending[slot], !entry.isInFlight, let due = entry.retryAt, due <= now else { continue }
            entry.retryAt = nil
            entry.isInFlight = true
            pending[slot] = entry
            effects.append(.register(TokenRegistration(kind: slot.kind, token: entry.token), server: slot.server))
        }
        return effects
    }

    static func slotOrder(_ lhs: RegistrationSlot, _ rhs: RegistrationSlot) -> Bool {
        lhs.server != rhs.server ? lhs.server < rhs.server : lhs.kind.rawValue < rhs.kind.rawValue
    }
}
