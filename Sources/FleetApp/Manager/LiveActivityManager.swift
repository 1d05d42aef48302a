import FleetCore

/// The token manager and the one-card rule, as a pure reducer.
///
/// It watches the activity sequences (as ``Event``s), keeps exactly one fleet card alive, hands each
/// token to the registration servers (the default one only) and retries failed registrations with
/// backoff. It also owes the server an `/ended` report until one is answered, retrying it the same way
/// (the server takes it idempotently) unless a newer card's registration supersedes it. The driver carries
/// out the ``Effect``s and feeds back answers and due retries.
public struct LiveActivityManager: Hashable, Sendable {
    /// Something the manager reacts to; each carries what the driver knows at that moment.
    public enum Event: Hashable, Sendable {
        /// The app launched: every fleet card iOS still has, the retired per-session cards, and the servers
        /// an earlier run of the app still owed an `/ended` report (kept in storage).
        case launched(fleet: [FleetActivity], retired: [ActivityID], endedReportsOwed: [String] = [])
        /// `activityUpdates` yielded a card; `fleet` is every fleet card now.
        case activityArrived(ActivityID, fleet: [FleetActivity])
        /// `pushToStartTokenUpdates` yielded a token.
        case pushToStartTokenIssued(PushToken)
        /// A card's `pushTokenUpdates` yielded a token.
        case pushTokenIssued(ActivityID, PushToken)
        /// A card's `activityStateUpdates` yielded a state with the content the card shows then; `fleet` is
        /// every fleet card now.
        case activityStateChanged(ActivityID, ActivityLifecycleState, content: ContentState, fleet: [FleetActivity])
        /// The controller is about to end this card.
        case appWillEnd(ActivityID)
        /// The servers must hear that the card is gone (`/ended`): the app ended it, or the person did.
        case cardEndToReport
        /// A server answered an `/ended` report.
        case endedReportAnswered(server: String, succeeded: Bool, at: UnixTime)
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
        /// `POST /api/push/live-activity/ended` to this server.
        case reportEnded(server: String)
        /// A tracked card ended without the app ending it, for this cause; the controller decides what it means.
        case noteEndedElsewhere(ActivityID, CardEndCause, finalContent: ContentState)
    }

    struct Pending: Hashable, Sendable {
        var token: PushToken
        var owner: ActivityID?
        var attempt = Attempt(isInFlight: true)
    }

    /// Where one call stands between its failures and its retries.
    struct Attempt: Hashable, Sendable {
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
    /// Last accepted token per slot, for this run of the app only: every launch hands the server the
    /// tokens iOS yields once more, so a server that lost a live card's token gets it back.
    public private(set) var sent = SentTokenCache()
    var pending: [RegistrationSlot: Pending] = [:]
    /// `/ended` reports owed, per server.
    var endedReports: [String: Attempt] = [:]

    public init(targets: [String], guards: GuardSet = .all, backoff: RegistrationBackoff = RegistrationBackoff()) {
        self.targets = targets
        self.guards = guards
        self.backoff = backoff
    }

    /// When the earliest scheduled retry falls due, or nil.
    public var nextRetryAt: UnixTime? {
        (pending.values.map(\.attempt) + endedReports.values).compactMap(\.retryAt).min()
    }

    /// The servers still owed an `/ended` report, sorted; persist them so a relaunch still reports.
    public var endedReportsOwed: [String] { endedReports.keys.sorted() }

    /// Advances the manager by one event and returns the effects, in the order they must run.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .launched(let fleet, let retired, let owed):
            // The tombstone: a per-session card from an older build can only be reached while its type is
            // declared, so end every one of them once, at launch.
            var effects: [Effect] = retired.map { .endRetired($0) }
            effects += [.observeActivityUpdates, .observePushToStartTokens]
            effects += keepOneCard(fleet)
            // A live card now supersedes what an earlier run owed: its token registration is the news.
            return fleet.liveCards.isEmpty ? effects + owe(servers: owed.filter(targets.contains)) : effects
        case .activityArrived(_, let fleet):
            return keepOneCard(fleet)
        case .pushToStartTokenIssued(let token):
            return offer(TokenRegistration(kind: .pushToStart, token: token), owner: nil)
        case .pushTokenIssued(let id, let token):
            guard tracked.contains(id) else { return [] }
            return offer(TokenRegistration(kind: .update, token: token), owner: id)
        case .activityStateChanged(let id, let state, let content, let fleet):
            // A card the app ends (or dedupe ends) is untracked first, so this is an end from elsewhere:
            // the person swiped it away, a push ended it, or the system expired it.
            guard !state.isLive, tracked.contains(id) else { return [] }
            let cause = CardEndCause.of(id, state: state, finalContent: content, fleet: fleet)
            return untrack(id) + [.noteEndedElsewhere(id, cause, finalContent: content)]
        case .appWillEnd(let id):
            return untrack(id)
        case .cardEndToReport:
            return owe(servers: targets)
        case .registrationAnswered(let registration, let server, let succeeded, let now):
            answer(registration, server: server, succeeded: succeeded, now: now)
            return []
        case .endedReportAnswered(let server, let succeeded, let now):
            endedReportAnswered(server: server, succeeded: succeeded, now: now)
            return []
        case .retriesDue(let now):
            return retry(dueBy: now) + retryEndedReports(dueBy: now)
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
            pending[slot] = Pending(token: registration.token, owner: owner)
            // A new card's token supersedes an `/ended` still owed: the server must adopt that card, not
            // forget it when a late retry of the report lands.
            if registration.kind == .update { endedReports[server] = nil }
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
        entry.attempt.failed(at: now, backoff: backoff)
        pending[slot] = entry
    }

    mutating func retry(dueBy now: UnixTime) -> [Effect] {
        var effects: [Effect] = []
        for slot in pending.keys.sorted(by: Self.slotOrder) {
            guard var entry = pending[slot], entry.attempt.startIfDue(by: now) else { continue }
            pending[slot] = entry
            effects.append(.register(TokenRegistration(kind: slot.kind, token: entry.token), server: slot.server))
        }
        return effects
    }

    static func slotOrder(_ lhs: RegistrationSlot, _ rhs: RegistrationSlot) -> Bool {
        lhs.server != rhs.server ? lhs.server < rhs.server : lhs.kind.rawValue < rhs.kind.rawValue
    }
}
