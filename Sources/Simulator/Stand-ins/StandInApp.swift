import FleetCore

/// The app's process on one phone: its session store, FleetActivityController's sync and
/// LiveActivityManager's tokens and dedupe.
///
/// STAND-IN: mirrors what FleetApp must do, built from FleetCore's real reducer, end gate, dedupe rule
/// and comparison, until FleetApp lands on main; then the simulator drives the real controller instead.
/// Every app-side guard is a branch here that honours the ``GuardSet``.
final class StandInApp {
    /// The session store: empty at launch; hydrating from a cache is not a live fetch.
    private var sessions: [FleetSession] = []
    private var liveSessionsFetchedOnce = false
    private var since: SinceMap = [:]
    private var gate = EndGateState()
    /// Update tokens already registered (skip re-sending an unchanged token).
    private var registeredTokens: Set<String> = []
    private var registeredStartToken: String?
    /// Identifies the current foreground refresh loop; a new foregrounding starts a new one.
    private var refreshLoop = 0

    private func isCurrent(_ phone: SimulatedPhone) -> Bool { phone.app === self && phone.isRunning }

    // MARK: triggers

    /// `configure()` at launch: sync at once (with an empty store), register tokens, attach to cards, fetch.
    func launched(_ phone: SimulatedPhone, _ simulation: Simulation) {
        adoptSince(of: phone)
        sync(phone, simulation)
        registerStartToken(phone, simulation)
        reportHiddenDirs(phone, simulation)
        for card in phone.cards { activityAppeared(card, phone, simulation) }
        fetch(phone, simulation)
        startRefreshing(phone, simulation)
    }

    /// Foregrounding (or a background wake of a suspended process): refresh, then sync.
    ///
    /// The store was frozen while suspended: it is no live answer any more, so until the refresh lands
    /// the count is unknown (a stale zero read as trustworthy would end the card the server push-started
    /// meanwhile). Foregrounding syncs at once, and the gate leaves the card untouched.
    func resumed(_ phone: SimulatedPhone, _ simulation: Simulation) {
        liveSessionsFetchedOnce = false
        adoptSince(of: phone)
        if phone.lifecycle == .foreground { sync(phone, simulation) }
        registerStartToken(phone, simulation)
        for card in phone.cards { activityAppeared(card, phone, simulation) }
        fetch(phone, simulation)
        startRefreshing(phone, simulation)
    }

    /// Takes the `since` baselines the card shows (whichever writer touched it last) in place of the app's
    /// own, which went stale while it was not running. Without this, a session that began while the app was
    /// suspended gets `since` = the moment the app next looked, and the two writers ping-pong the labels.
    private func adoptSince(of phone: SimulatedPhone) {
        guard let card = phone.cards.last else { return }
        for row in card.content.rows { since[row.sid] = SinceEntry(state: row.state, since: row.since) }
    }

    /// While in the foreground the list refreshes every so often; each completed refresh syncs.
    private func startRefreshing(_ phone: SimulatedPhone, _ simulation: Simulation) {
        guard phone.lifecycle == .foreground else { return }
        refreshLoop += 1
        let loop = refreshLoop
        func next(_ simulation: Simulation) {
            simulation.after(simulation.environment.foregroundRefresh) { [self] simulation in
                guard loop == refreshLoop, isCurrent(phone), phone.lifecycle == .foreground else { return }
                fetch(phone, simulation)
                next(simulation)
            }
        }
        next(simulation)
    }

    /// The event stream delivers a change a moment later.
    func sessionsChanged(_ phone: SimulatedPhone, _ simulation: Simulation) {
        simulation.after(simulation.random.uniform(simulation.environment.networkLatency)) { [self] simulation in
            guard isCurrent(phone), liveSessionsFetchedOnce else { return }
            sessions = simulation.truth.fleetSessions
            sync(phone, simulation)
        }
    }

    private func fetch(_ phone: SimulatedPhone, _ simulation: Simulation) {
        simulation.after(simulation.random.uniform(simulation.environment.fetchLatency)) { [self] simulation in
            guard isCurrent(phone) else { return }
            sessions = simulation.truth.fleetSessions
            liveSessionsFetchedOnce = true
            sync(phone, simulation)
        }
    }

    // MARK: FleetActivityController.sync()

    func sync(_ phone: SimulatedPhone, _ simulation: Simulation) {
        guard isCurrent(phone) else { return }
        let guards = simulation.guards
        let reduction = FleetReducer.reduce(
            sessions, previousSince: since, hiddenDirs: phone.hiddenDirs, now: simulation.unixNow, guards: guards)
        let isTrustworthy = liveSessionsFetchedOnce && reduction.isTrustworthy
        // An unknown count must not rewrite the baselines either: a stale store would drop them.
        if isTrustworthy { since = reduction.since }
        let verdict = EndGate().step(
            &gate, activeTotal: reduction.activeTotal, isTrustworthy: isTrustworthy, now: simulation.unixNow,
            guards: guards)
        switch verdict {
        case .untouched:
            return
        case .keep:
            guard reduction.activeTotal > 0 else { return }
            if phone.cards.isEmpty {
                // Activity.request(pushType: .token) works only in the foreground.
                guard phone.lifecycle == .foreground else { return }
                let card = phone.createCard(.app, content: reduction.contentState, simulation)
                activityAppeared(card, phone, simulation)
                return
            }
            for card in phone.cards where !card.content.isSame(as: reduction.contentState, guards: guards) {
                card.content = reduction.contentState
                card.lastTimestamp = simulation.unixNow
            }
        case .end:
            guard !phone.cards.isEmpty else { return }
            for card in phone.cards { phone.end(card) }
            simulation.metrics.clientEnded(phone, simulation)
            for server in targets(phone, simulation) {
                send(phone, simulation) { simulation in server.endedReported(phone.device, simulation) }
            }
        }
    }

    // MARK: LiveActivityManager

    /// `activityUpdates` yielded a card: keep one (dedupe), then register its update token when it exists.
    func activityAppeared(_ card: LockScreenCard, _ phone: SimulatedPhone, _ simulation: Simulation) {
        guard isCurrent(phone) else { return }
        if simulation.guards.isOn(.dedupe), phone.cards.count > 1 {
            let candidates = phone.cards.map { DedupeCandidate(id: Self.dedupeID($0), updatedAt: $0.content.updatedAt) }
            let losers = Set(FleetActivityDedupe.partition(candidates).losers.map(\.id))
            for loser in phone.cards where losers.contains(Self.dedupeID(loser)) { phone.end(loser) }
        }
        guard phone.cards.contains(where: { $0 === card }), !registeredTokens.contains(card.updateToken) else { return }
        simulation.at(card.tokenReadyAt) { [self] simulation in
            guard isCurrent(phone), phone.cards.contains(where: { $0 === card }),
                !registeredTokens.contains(card.updateToken)
            else { return }
            registeredTokens.insert(card.updateToken)
            let entry = TokenRegistry.Entry(device: phone.device, environment: phone.environment, token: card.updateToken)
            for server in targets(phone, simulation) {
                send(phone, simulation) { simulation in
                    server.updateTokenRegistered(entry, simulation)
                    if card.tokenRegisteredAt == nil, server.isOnPushPort { card.tokenRegisteredAt = simulation.now }
                }
            }
        }
    }

    private func registerStartToken(_ phone: SimulatedPhone, _ simulation: Simulation) {
        guard registeredStartToken != phone.pushToStartToken else { return }
        registeredStartToken = phone.pushToStartToken
        let entry = TokenRegistry.Entry(device: phone.device, environment: phone.environment, token: phone.pushToStartToken)
        for server in targets(phone, simulation) {
            send(phone, simulation) { simulation in server.startTokenRegistered(entry, simulation) }
        }
    }

    private func reportHiddenDirs(_ phone: SimulatedPhone, _ simulation: Simulation) {
        guard phone.reportsHiddenDirs else { return }
        for server in targets(phone, simulation) {
            send(phone, simulation) { _ in server.hiddenDirs[phone.device] = phone.hiddenDirs }
        }
    }

    /// Registrations go to the default host only; to every configured host without `default-host-only`.
    private func targets(_ phone: SimulatedPhone, _ simulation: Simulation) -> [SimulatedServer] {
        let names = simulation.guards.isOn(.defaultHostOnly) ? Array(phone.serverNames.prefix(1)) : phone.serverNames
        return names.compactMap { simulation.server(named: $0) }
    }

    /// One request to a control plane through the tunnel; from a background launch it may fail, and is
    /// retried with backoff for as long as the process runs.
    private func send(
        _ phone: SimulatedPhone, _ simulation: Simulation, retry: Double? = nil,
        _ arrive: @escaping (Simulation) -> Void
    ) {
        let fails = phone.lifecycle == .background
            && !simulation.random.chance(simulation.environment.backgroundRegistrationSuccess)
        let latency = simulation.random.uniform(simulation.environment.registrationLatency)
        guard fails else {
            simulation.after(latency, arrive)
            return
        }
        let wait = retry ?? simulation.environment.registrationRetry
        simulation.after(latency + wait) { [self] simulation in
            guard isCurrent(phone) else { return }
            send(phone, simulation, retry: wait * 2, arrive)
        }
    }

    /// Card ids as dedupe compares them: zero-padded so string order is creation order.
    private static func dedupeID(_ card: LockScreenCard) -> String {
        let digits = String(card.id)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
