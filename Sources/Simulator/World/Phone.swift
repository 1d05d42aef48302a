import FleetApp
import FleetAppTesting
import FleetCore

/// One iPhone in the world: FleetApp's real ``FleetApp/SimulatedPhone`` (the app's engine over the
/// in-memory ActivityKit) plus what iOS and the person do to it: open, leave, suspend, terminate,
/// delete, and the background launch after a push-to-start that may or may not happen.
final class Phone {
    enum Lifecycle: String { case notRunning, foreground, background, suspended }

    let index: Int
    let name: String
    let device: DeviceID
    let environment: PushEnvironment
    /// FleetApp's phone: the app's process, ActivityKit in memory, the outbox of calls to servers.
    let rig: FleetAppTesting.SimulatedPhone
    /// The folders the person hid in the list (set on the app's model at every launch).
    var hiddenDirs: HiddenDirs
    /// Whether `PUT /api/devices` gets through (false: the server never learns the hidden folders).
    var reportsHiddenDirs = true
    /// Whether the phone runs iOS 17.2 or later: only then can a server push-start a card on it.
    var supportsPushToStart = true
    /// Overrides the environment's chance of a background launch after a push-to-start.
    var backgroundWakeChance: Double?
    private(set) var isInstalled = true
    private(set) var lifecycle = Lifecycle.notRunning
    /// Running only because iOS launched it in the background after a push-to-start (calls may be dropped).
    private(set) var isInBackgroundLaunch = false
    private var lifecycleGeneration = 0
    private var dueScheduledAt: Double?
    private var commandsSeen = 0
    /// Push-started cards so far that found the app not running (keys the wake coin).
    private var pushStartedCards = 0
    /// Whether the phone has a network connection (an outage: a tunnel, a flight, a dead spot).
    private(set) var isOnline = true
    /// When the connection last came back (simulated seconds), if it ever dropped.
    private(set) var reconnectedAt: Double?
    /// iOS's priority-10 budget for the app's Live Activity pushes.
    var budget: ImmediateBudget
    /// Pushes iOS holds over budget, newest per card.
    var held: [String: IncomingPush] = [:]
    /// Whether APNs accepted a push for this phone and dropped it (a 200 that never arrives); false once a
    /// later push lands.
    var hasLostPush = false

    init(index: Int, name: String, device: DeviceID, environment: PushEnvironment, hiddenDirs: HiddenDirs,
         servers: [String], simulation: Simulation) {
        self.index = index
        self.name = name
        self.device = device
        self.environment = environment
        self.hiddenDirs = hiddenDirs
        budget = ImmediateBudget(perHour: simulation.environment.immediateBudgetPerHour)
        var configuration = AppConfiguration(
            deviceID: device, environment: environment,
            servers: servers.map { ServerProfile(name: $0, baseURL: "https://\($0).example:8766", bearerToken: "t") },
            defaultServerName: servers[0])
        configuration.requestsChannelCards = simulation.ios.supportsChannels
        configuration.cardStaleAfter = simulation.staleAfter
        if simulation.privacy { configuration.privacy = true }
        rig = FleetAppTesting.SimulatedPhone(
            configuration: configuration, clock: simulation.clock.wallClock,
            behaviour: InMemoryActivityHost.Behaviour(
                tokenLatency: simulation.environment.tokenMintDelay, supportsChannels: simulation.ios.supportsChannels),
            installID: UInt32(index + 1), guards: simulation.guards)
    }

    /// The app's code can run now (foreground, or background before suspension).
    var isRunning: Bool { (lifecycle == .foreground || lifecycle == .background) && rig.app != nil }

    /// The fleet cards on the lock screen (live, or ended and not yet dismissed).
    var visibleCards: [FleetActivity] { isInstalled ? rig.host.visibleFleetCards : [] }

    // MARK: the person

    /// The person opens the app: a cold launch, or the suspended process comes back (sync, then refresh).
    func open(_ simulation: Simulation) {
        guard isInstalled, lifecycle != .foreground else { return }
        setLifecycle(.foreground)
        if rig.app == nil {
            launch(inForeground: true, simulation)
        } else {
            rig.foreground()
            rig.app?.refresh()
        }
        keepRefreshing(simulation)
        pump(simulation)
    }

    /// The person leaves the app: it runs on for a few seconds, then iOS suspends it.
    func leave(_ simulation: Simulation) {
        guard lifecycle == .foreground else { return }
        rig.host.appBackgrounded()
        setLifecycle(.background)
        suspend(after: simulation.environment.suspendAfterLeaving, simulation)
    }

    /// iOS terminates the process; the cards stay.
    func terminate(_ simulation: Simulation) {
        rig.terminate()
        setLifecycle(.notRunning)
    }

    /// The person swipes the card away on the Lock Screen. The app learns of it only when it next runs;
    /// until a new session starts, the right Lock Screen for this phone is no card.
    func swipeAway(_ simulation: Simulation) {
        let cards = rig.host.fleetActivities.filter(\.state.isLive)
        guard !cards.isEmpty else { return }
        for card in cards { rig.host.personDismissed(card.id) }
        let truth = simulation.truth.reduction(hiddenDirs: hiddenDirs, now: simulation.unixNow)
        simulation.metrics.personDismissed(phone: index, population: Set(truth.since.keys))
        simulation.note("\(name): the person swiped the card away")
        pump(simulation)
    }

    /// The app is deleted: its cards go, and its tokens answer 410 from now on.
    func uninstall(_ simulation: Simulation) {
        for card in rig.host.fleetActivities { rig.host.personDismissed(card.id) }
        terminate(simulation)
        isInstalled = false
    }

    // MARK: iOS

    private func setLifecycle(_ next: Lifecycle) {
        isInBackgroundLaunch = false
        lifecycle = next
        lifecycleGeneration += 1
    }

    private func suspend(after delay: Double, _ simulation: Simulation) {
        let generation = lifecycleGeneration
        simulation.after(delay) { [self] simulation in
            guard generation == lifecycleGeneration, lifecycle == .background else { return }
            rig.suspend()
            // What the app sends as it goes to the background (its `appState` report) leaves now, while it
            // still runs (the real app reports at scenePhase .background); queued, it left only with the
            // next push-started card, and the server held every first start for an app it thought open.
            pump(simulation)
            setLifecycle(.suspended)
            simulation.note("\(name): app suspended")
        }
    }

    private func launch(inForeground: Bool, _ simulation: Simulation) {
        rig.launch(inForeground: inForeground)
        let hidden = hiddenDirs
        rig.app?.changeModel { $0.hiddenDirs = hidden }
        simulation.note("\(name): app launched (\(inForeground ? "foreground" : "background"))")
    }

    /// The list refreshes every so often while the app is open (the third sync trigger).
    private func keepRefreshing(_ simulation: Simulation) {
        let generation = lifecycleGeneration
        simulation.after(simulation.environment.foregroundRefresh) { [self] simulation in
            guard generation == lifecycleGeneration, lifecycle == .foreground else { return }
            rig.app?.refresh()
            pump(simulation)
            keepRefreshing(simulation)
        }
    }

    /// iOS launches (or resumes) the app in the background for a short window.
    func backgroundLaunch(_ simulation: Simulation) {
        guard isInstalled, lifecycle == .notRunning || lifecycle == .suspended else { return }
        if rig.app == nil {
            setLifecycle(.background)
            launch(inForeground: false, simulation)
        } else {
            setLifecycle(.background)
            rig.resumeInBackground()
            simulation.note("\(name): app resumed in the background")
        }
        isInBackgroundLaunch = true
        suspend(after: simulation.environment.backgroundWindow, simulation)
        pump(simulation)
    }

    /// A push-to-start reached `token`: ActivityKit starts a card if it is this install's current token.
    func pushStarted(
        _ token: PushToken, content: ContentState, staleDate: UnixTime?, inputPushChannel: String?,
        in simulation: Simulation
    ) {
        let arrival = rig.host.pushToStart(
            token: token, content: content, staleDate: staleDate, inputPushChannel: inputPushChannel,
            channelExists: inputPushChannel.map { simulation.apns.channelExists($0) } ?? true)
        guard case .applied(let id) = arrival else {
            if arrival == .startedNothing { simulation.note("\(name): a start naming a channel started nothing") }
            return
        }
        simulation.note("\(name): card \(id) push-started")
        simulation.metrics.cardPushStarted(id, on: self, simulation)
        if !isRunning {
            let chance = backgroundWakeChance ?? simulation.environment.backgroundWakeAfterStart
            pushStartedCards += 1
            var coin = simulation.draw(.wake, "\(index)/\(pushStartedCards)")
            let wakes = coin.chance(chance)
            let delay = coin.uniform(simulation.environment.backgroundWakeDelay)
            if wakes {
                simulation.after(delay) { [self] in
                    backgroundLaunch($0)
                }
            }
        }
        pump(simulation)
    }

    /// An update or end push reached an update token.
    func deliver(_ push: LiveActivityPush, to token: PushToken, in simulation: Simulation) {
        rig.host.deliver(push, toUpdateToken: token)
        pump(simulation)
    }

    /// The connection drops (`false`) or comes back (`true`). Back online, APNs hands over what it
    /// stored, and a running app refreshes its list (its event stream missed the outage).
    func setOnline(_ online: Bool, _ simulation: Simulation) {
        guard online != isOnline, isInstalled else { return }
        isOnline = online
        simulation.note("\(name): network \(online ? "back" : "lost")")
        guard online else { return }
        reconnectedAt = simulation.now
        simulation.apns.reconnected(self, simulation)
        if isRunning { rig.app?.refresh() }
        pump(simulation)
    }

    /// A session changed on the servers: a running app hears of it over its event stream a moment later.
    func observe(_ change: @escaping (inout SessionModel) -> Void, _ simulation: Simulation) {
        guard isRunning, isOnline else { return }
        let generation = lifecycleGeneration
        var latency = simulation.draw(.eventStream, "\(index)/\(simulation.truth.version)")
        simulation.after(latency.uniform(simulation.environment.networkLatency)) { [self] simulation in
            guard generation == lifecycleGeneration, isRunning else { return }
            rig.app?.changeModel(change)
            pump(simulation)
        }
    }

    // MARK: driving FleetApp

    /// One line of the app's own trace, short.
    static func describe(_ event: AppTraceEvent) -> String {
        switch event {
        case .synced(let decision):
            let effects = decision.effects.map { effect -> String in
                switch effect {
                case .request: "request"
                case .update: "update"
                case .end: "end"
                case .reportEnded: "report-ended"
                }
            }
            return "sync \(decision.trigger.rawValue): active \(decision.reduction.activeTotal), "
                + "trusted \(decision.isTrustworthy), \(decision.verdict) \(effects)"
        case .requestRefused(let error): return "request refused: \(error)"
        case .managed(let event, let effects): return "manager \(event) -> \(effects)"
        case .sent(_, let call, let server): return "sent \(call.summary) to \(server)"
        case .answered(_, let call, let server, let error):
            return "answer to \(call.summary) from \(server)" + (error.map { ": \($0)" } ?? "")
        case .sealKeyFailed(let error): return "seal key failed: \(error)"
        }
    }

    /// After anything touched the phone: send its queued calls, count its new cards, and wake it when
    /// ActivityKit or a retry next falls due.
    func pump(_ simulation: Simulation) {
        for command in rig.host.commands.dropFirst(commandsSeen) {
            if case .request(let id, _, _) = command {
                simulation.note("\(name): card \(id) requested by the app")
                simulation.metrics.cardRequested(on: self)
            }
        }
        commandsSeen = rig.host.commands.count
        if simulation.trace != nil, let app = rig.app {
            for entry in app.takeTrace() { simulation.note("\(name) app: \(Self.describe(entry.event))") }
        }
        for sent in rig.outbox.takeQueued() { simulation.route(sent, from: self) }
        guard let due = rig.nextDueTime else { return }
        let time = max(due - Simulation.epoch, simulation.now)
        if let scheduled = dueScheduledAt, scheduled <= time, scheduled >= simulation.now { return }
        dueScheduledAt = time
        simulation.at(time) { [self] simulation in
            if dueScheduledAt == time { dueScheduledAt = nil }
            rig.runDue()
            pump(simulation)
        }
    }
}
