import FleetCore

/// One iPhone: iOS's side of things (the app's lifecycle, the lock screen's cards, the push-to-start token,
/// the background launch that may or may not follow a push-to-start) around the app's process.
final class SimulatedPhone {
    enum Lifecycle: String { case notRunning, foreground, background, suspended }

    let index: Int
    let name: String
    let device: DeviceID
    let environment: PushEnvironment
    /// The folders the person hid in the app's list; the card must not count them.
    var hiddenDirs: HiddenDirs
    /// Whether the app's `PUT /api/devices` carrying hiddenDirs gets through (false: an old build, a failed PUT).
    var reportsHiddenDirs = true
    /// Configured control planes by name; the first is the default host.
    var serverNames: [String]
    /// Overrides the environment's chance of a background launch after a push-to-start.
    var backgroundWakeChance: Double?
    private(set) var isInstalled = true
    private(set) var lifecycle = Lifecycle.notRunning
    /// The lock screen: every fleet card that exists (ended cards are dismissed at once).
    var cards: [LockScreenCard] = []
    /// The install's current push-to-start token; older values rot (APNs answers 200 and drops them).
    private(set) var pushToStartToken = ""
    /// The app's process memory while it is launched (running or suspended).
    private(set) var app: StandInApp?
    private var lifecycleGeneration = 0
    /// Where lifecycle changes are traced (set by the simulation when tracing).
    var trace: ((String) -> Void)?

    init(index: Int, name: String, device: DeviceID, environment: PushEnvironment = .production,
         hiddenDirs: HiddenDirs = [], serverNames: [String]) {
        self.index = index
        self.name = name
        self.device = device
        self.environment = environment
        self.hiddenDirs = hiddenDirs
        self.serverNames = serverNames
    }

    /// The app's code can run right now (foreground, or background before suspension).
    var isRunning: Bool { lifecycle == .foreground || lifecycle == .background }

    // MARK: the person

    /// The person opens the app: a cold launch, or a resume of the suspended process.
    func open(_ simulation: Simulation) {
        guard isInstalled else { return }
        if let app {
            setLifecycle(.foreground)
            app.resumed(self, simulation)
        } else {
            launch(foreground: true, simulation)
        }
    }

    /// The person leaves the app (home, lock): it runs on briefly, then iOS suspends it.
    func leave(_ simulation: Simulation) {
        guard isRunning else { return }
        setLifecycle(.background)
        suspend(after: simulation.environment.suspendAfterLeaving, simulation)
    }

    /// iOS (or the person) terminates the process: memory gone, cards stay.
    func terminate(_ simulation: Simulation) {
        setLifecycle(.notRunning)
        app = nil
    }

    /// The app is deleted: its cards vanish, and its tokens answer 410 from now on.
    func uninstall(_ simulation: Simulation) {
        terminate(simulation)
        isInstalled = false
        cards.removeAll()
    }

    // MARK: iOS

    private func setLifecycle(_ next: Lifecycle) {
        trace?("\(name): app \(next.rawValue)")
        lifecycle = next
        lifecycleGeneration += 1
    }

    private func suspend(after delay: Double, _ simulation: Simulation) {
        let generation = lifecycleGeneration
        simulation.after(delay) { [self] _ in
            guard generation == lifecycleGeneration, lifecycle == .background else { return }
            setLifecycle(.suspended)
        }
    }

    private func launch(foreground: Bool, _ simulation: Simulation) {
        setLifecycle(foreground ? .foreground : .background)
        // ActivityKit re-mints the push-to-start token on (almost) every launch.
        if pushToStartToken.isEmpty || simulation.random.chance(simulation.environment.pushToStartRemint) {
            pushToStartToken = simulation.random.hexToken()
            simulation.apns.mint(pushToStartToken, for: .pushToStart(phone: index))
        }
        let process = StandInApp()
        app = process
        process.launched(self, simulation)
    }

    /// iOS launches (or resumes) the app in the background for a short window.
    func backgroundLaunch(_ simulation: Simulation) {
        guard isInstalled, !isRunning else { return }
        if let app {
            setLifecycle(.background)
            app.resumed(self, simulation)
        } else {
            launch(foreground: false, simulation)
        }
        suspend(after: simulation.environment.backgroundWindow, simulation)
    }

    /// A push-to-start reached the current token: the system creates a card, and may wake the app.
    func pushStarted(_ push: SimulatedPush, in simulation: Simulation) {
        var content = push.content
        content.updatedAt = push.timestamp
        let card = createCard(.pushToStart, content: content, simulation)
        if let app, isRunning {
            app.activityAppeared(card, self, simulation)
            return
        }
        let chance = backgroundWakeChance ?? simulation.environment.backgroundWakeAfterStart
        guard simulation.random.chance(chance) else { return }
        simulation.after(simulation.random.uniform(simulation.environment.backgroundWakeDelay)) { [self] simulation in
            backgroundLaunch(simulation)
        }
    }

    /// An update or end push reached a live card's token.
    func apply(_ push: SimulatedPush, to card: LockScreenCard, in simulation: Simulation) {
        switch push.event {
        case .start:
            return
        case .update:
            guard push.timestamp >= card.lastTimestamp else { return }  // older than what it shows
            card.content = push.content
            card.lastTimestamp = push.timestamp
        case .end:
            end(card)  // the server sends a dismissal date in the past: gone at once
        }
    }

    /// ActivityKit creates a card (`Activity.request` or a push-to-start) with a fresh update token.
    func createCard(_ origin: LockScreenCard.Origin, content: ContentState, _ simulation: Simulation) -> LockScreenCard {
        let token = simulation.random.hexToken()
        let id = simulation.makeCardID()
        simulation.apns.mint(token, for: .activity(phone: index, card: id))
        let card = LockScreenCard(
            id: id, origin: origin, updateToken: token, content: content, at: simulation.now,
            tokenReadyAt: simulation.now + simulation.random.uniform(simulation.environment.tokenMintDelay))
        cards.append(card)
        simulation.note("\(name): card \(id) appears (\(origin.rawValue)) token \(token.prefix(8)) rows \(content.rows.count)")
        simulation.metrics.cardAppeared(card, on: self, simulation)
        return card
    }

    /// Ends a card with dismissal `.immediate`.
    func end(_ card: LockScreenCard) {
        trace?("\(name): card \(card.id) ends")
        cards.removeAll { $0 === card }
    }

    /// The session list changed on the servers: a running app hears of it over its event stream.
    func sessionsChanged(in simulation: Simulation) {
        guard let app, isRunning else { return }
        app.sessionsChanged(self, simulation)
    }
}
