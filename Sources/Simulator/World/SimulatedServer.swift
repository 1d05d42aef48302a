import FleetCore

/// One `lfg serve` process: its watcher's boxes, its token store, its ticks and its pushes in flight.
///
/// A scratch server shares the primary's ``TokenRegistry`` (same `$LFG_HOME`) but keeps its own boxes:
/// its own idea of which card exists.
final class SimulatedServer {
    let name: String
    /// Listens on the canonical push port (`LFG_PUSH_PORT`).
    let isOnPushPort: Bool
    let registry: TokenRegistry
    private(set) var boxes: [DeviceID: DeviceBox] = [:]
    /// Device hiddenDirs the server knows (`PUT /api/devices`); a failed PUT leaves it unaware.
    var hiddenDirs: [DeviceID: HiddenDirs] = [:]
    /// Runs between these simulated seconds.
    var lifetime: ClosedRange<Double>
    private(set) var isLoading = false
    /// The persisted boxes (the store: card, since, veto), written on every change.
    private var disk: [DeviceID: DeviceBox] = [:]
    private var snapshotBeingLoaded: [DeviceID: DeviceBox] = [:]
    private var endedWhileLoading: Set<DeviceID> = []

    init(name: String, isOnPushPort: Bool = true, registry: TokenRegistry = TokenRegistry(), lifetime: ClosedRange<Double> = 0...Double.infinity) {
        self.name = name
        self.isOnPushPort = isOnPushPort
        self.registry = registry
        self.lifetime = lifetime
    }

    func isRunning(at time: Double) -> Bool { lifetime.contains(time) }

    /// Whether this server's watcher pushes at all (`push-port-gate`: only the canonical port does).
    func pushes(_ simulation: Simulation) -> Bool {
        isRunning(at: simulation.now) && (isOnPushPort || !simulation.guards.isOn(.pushPortGate))
    }

    /// Whether the server would address `token` with its next update.
    func addresses(_ token: String, in simulation: Simulation) -> Bool {
        pushes(simulation) && registry.holdsUpdateToken(token)
    }

    func box(_ device: DeviceID) -> DeviceBox { boxes[device] ?? DeviceBox() }

    /// What the watcher sees for `device`: every reported session, with the device's known hiddenDirs.
    func reduction(for device: DeviceID, in simulation: Simulation) -> FleetReduction {
        FleetReducer.reduce(
            simulation.truth.fleetSessions, previousSince: box(device).since,
            hiddenDirs: hiddenDirs[device] ?? [], now: simulation.unixNow, guards: simulation.guards)
    }

    // MARK: ticking

    func startTicking(in simulation: Simulation) {
        let first = max(lifetime.lowerBound, 0) + simulation.random.uniform(0...simulation.environment.tick)
        simulation.at(first) { [self] simulation in tick(simulation) }
    }

    private func tick(_ simulation: Simulation) {
        guard isRunning(at: simulation.now) else { return }
        simulation.after(simulation.environment.tick) { [self] simulation in tick(simulation) }
        // `push-port-gate`: a server off the canonical port stays silent; its watcher does not run.
        guard !isLoading, pushes(simulation) else { return }
        for device in registry.devices { tick(device, simulation) }
    }

    private func tick(_ device: DeviceID, _ simulation: Simulation) {
        var box = box(device)
        guard !box.isSending else { return }
        let reduction = reduction(for: device, in: simulation)
        let action = StandInWatcher.decide(&box, reduction: reduction, now: simulation.unixNow, guards: simulation.guards)
        boxes[device] = box
        if action.isWorthLogging { simulation.note("\(name): decide \(action.label) for \(device)") }
        switch action {
        case .nothing, .vetoed: return
        case .start(let content): send(action, event: .start, content: content, to: registry.startTokens(of: device), device, simulation)
        case .update(let content): send(action, event: .update, content: content, to: registry.updateTokens(of: device), device, simulation)
        case .end(let content): send(action, event: .end, content: content, to: registry.updateTokens(of: device), device, simulation)
        }
    }

    private func send(
        _ action: StandInWatcher.Action, event: SimulatedPush.Event, content: ContentState,
        to tokens: [TokenRegistry.Entry], _ device: DeviceID, _ simulation: Simulation
    ) {
        guard !tokens.isEmpty else { return }  // no-tokens: nothing can address the card
        boxes[device, default: DeviceBox()].isSending = true
        var answered = 0
        var accepted = 0
        for entry in tokens {
            let push = SimulatedPush(
                event: event, content: content, timestamp: simulation.unixNow, token: entry.token,
                environment: entry.environment)
            simulation.sendThroughAPNs(push) { [self] answer, simulation in
                answered += 1
                switch answer {
                case .accepted: accepted += 1
                case .tokenDead: registry.prune(entry.token)
                case .retryLater: break
                }
                guard answered == tokens.count else { return }
                var box = box(device)
                box.isSending = false
                StandInWatcher.delivered(&box, action: action, attempted: tokens.count, accepted: accepted, guards: simulation.guards)
                if case .start = action, accepted > 0 { simulation.metrics.serverStarted() }
                boxes[device] = box
                persist(device)
            }
        }
    }

    // MARK: the three Live Activity endpoints

    func startTokenRegistered(_ entry: TokenRegistry.Entry, _ simulation: Simulation) {
        simulation.note("\(name): start-token \(entry.token.prefix(8)) for \(entry.device)")
        registry.registerStart(entry, cap: simulation.guards.isOn(.pushToStartCap))
    }

    func updateTokenRegistered(_ entry: TokenRegistry.Entry, _ simulation: Simulation) {
        simulation.note("\(name): update-token \(entry.token.prefix(8)) for \(entry.device) (adopted)")
        registry.registerUpdate(entry, supersede: simulation.guards.isOn(.supersede))
        var box = box(entry.device)
        StandInWatcher.updateTokenRegistered(&box, guards: simulation.guards)
        boxes[entry.device] = box
        persist(entry.device)
    }

    func endedReported(_ device: DeviceID, _ simulation: Simulation) {
        let population = Set(reduction(for: device, in: simulation).since.keys)
        simulation.note("\(name): client-ended for \(device), veto \(population.map(\.rawValue).sorted())")
        var box = box(device)
        StandInWatcher.endedReported(&box, population: population)
        boxes[device] = box
        persist(device)
        if isLoading { endedWhileLoading.insert(device) }
        if isOnPushPort { simulation.metrics.endedAgainstActive(device, population: population, simulation) }
    }

    // MARK: restart and persistence

    private func persist(_ device: DeviceID) {
        var stored = box(device)
        stored.isSending = false
        disk[device] = stored
    }

    /// The process restarts: memory is lost and the persisted state loads for a moment.
    func restart(_ simulation: Simulation) {
        simulation.note("\(name): restarts; loading its stored state")
        boxes = [:]
        isLoading = true
        snapshotBeingLoaded = disk
        endedWhileLoading = []
        simulation.after(simulation.environment.serverLoadDelay) { [self] simulation in
            for device in snapshotBeingLoaded.keys.sorted() {
                // `ended-report-wins`: an /ended that landed mid-load is newer than the snapshot.
                if simulation.guards.isOn(.endedReportWins), endedWhileLoading.contains(device) { continue }
                boxes[device] = snapshotBeingLoaded[device]
            }
            isLoading = false
        }
    }
}
