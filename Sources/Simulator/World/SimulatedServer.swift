import APNs
import ControlPlane
import FleetApp
import FleetCore

/// One `lfg serve` process, driving ControlPlane's real ``Watcher`` the way ``ControlPlaneService`` does:
/// every event in, every effect carried out (pushes through the simulated APNs, records to the store),
/// a tick every `LFG_TICK_MS` and promptly after a change, and nothing at all while its push gate is shut.
final class SimulatedServer {
    /// The canonical push port (`LFG_PUSH_PORT`).
    static let pushPort = DefaultPort.server
    /// How long a change waits for the rest of its burst (the service's coalesce window).
    static let coalesceWindow = 0.01

    let name: String
    let port: Int
    let store: SimulatedStore
    /// Runs between these simulated seconds.
    let lifetime: ClosedRange<Double>
    private(set) var watcher: Watcher
    /// Every session and host this server heard of (hosts report to every control plane in the world).
    private(set) var fleet = FleetSnapshot()
    /// Bumped on every restart, so an APNs answer to the previous process finds nobody.
    private var incarnation = 0
    private var isPromptTickScheduled = false

    /// The watcher's thresholds (`LFG_STALE_AFTER_S` and the rest).
    let policy: CardPolicy

    init(
        name: String, port: Int, store: SimulatedStore, lifetime: ClosedRange<Double>, guards: GuardSet,
        policy: CardPolicy
    ) {
        self.policy = policy
        self.name = name
        self.port = port
        self.store = store
        self.lifetime = lifetime
        watcher = Watcher(guards: guards, policy: policy)
    }

    func isRunning(at time: Double) -> Bool { lifetime.contains(time) }

    /// The real push gate: Live Activities on, credentials complete, the canonical port, the home's lock.
    func gate(_ guards: GuardSet) -> PushGate {
        let onPort = port == Self.pushPort
        return PushGate(
            isLiveActivitiesOn: true, missingCredentials: [], listeningPort: port, pushPort: Self.pushPort,
            lock: onPort ? .held : (guards.isOn(.pushPortGate) ? .notTried : .heldElsewhere), home: "~/.lfg")
    }

    /// Whether this server's watcher runs and pushes now.
    func pushes(_ simulation: Simulation) -> Bool {
        isRunning(at: simulation.now) && gate(simulation.guards).isEnabled(guards: simulation.guards)
    }

    /// Whether this server would address `hex` as `device`'s update token.
    func addresses(_ hex: String, of device: DeviceID, in simulation: Simulation) -> Bool {
        guard pushes(simulation), let box = watcher.boxes[device] else { return false }
        return box.record.tokens.contains { $0.kind == .update && $0.hex == hex }
    }

    /// Whether this server would publish `channel` for `device` (it holds it as the device's channel).
    func publishes(to channel: String, of device: DeviceID, in simulation: Simulation) -> Bool {
        guard pushes(simulation), let record = watcher.boxes[device]?.record else { return false }
        return record.channel.channels.contains { $0.id.rawValue == channel }
    }

    /// Whether this server pushes and holds a live card for `device` (it would update it, not start one).
    func believesCardLive(on device: DeviceID, in simulation: Simulation) -> Bool {
        pushes(simulation) && watcher.boxes[device]?.record.card != nil
    }

    // MARK: lifecycle and ticks

    /// Starts the process at its lifetime's start: loads the store, then ticks.
    func start(in simulation: Simulation) {
        simulation.at(max(0, lifetime.lowerBound)) { [self] simulation in
            handle(.loaded(devices: store.devices, since: store.since, at: simulation.unixNow), simulation)
            var phase = simulation.draw(.tickPhase, name)
            simulation.after(phase.uniform(0...simulation.environment.tick)) { [self] in periodicTick($0) }
        }
    }

    /// The process restarts: a fresh watcher; the stored state takes `serverLoadDelay` to load, and
    /// whatever arrives meanwhile reaches the watcher before it (the race `ended-report-wins` settles).
    func restart(_ simulation: Simulation) {
        simulation.note("\(name): restarts; loading its stored state")
        incarnation += 1
        watcher = Watcher(guards: simulation.guards, policy: policy)
        let devices = store.devices
        let since = store.since
        simulation.after(simulation.environment.serverLoadDelay) { [self] simulation in
            handle(.loaded(devices: devices, since: since, at: simulation.unixNow), simulation)
        }
    }

    private func periodicTick(_ simulation: Simulation) {
        guard isRunning(at: simulation.now) else { return }
        simulation.after(simulation.environment.tick) { [self] in periodicTick($0) }
        tick(simulation)
    }

    /// Something changed: tick promptly, once per burst.
    func noteChange(_ simulation: Simulation) {
        guard !isPromptTickScheduled else { return }
        isPromptTickScheduled = true
        simulation.after(Self.coalesceWindow) { [self] simulation in
            isPromptTickScheduled = false
            tick(simulation)
        }
    }

    private func tick(_ simulation: Simulation) {
        guard pushes(simulation) else { return }
        handle(.ticked(fleet, at: simulation.unixNow), simulation)
    }

    // MARK: what reaches the server

    func sessionReported(_ sid: SessionID, _ report: SessionReport?, _ simulation: Simulation) {
        if let report { fleet.put(sid, report) } else { fleet.remove(sid) }
        noteChange(simulation)
    }

    func hostChanged(_ host: HostID, isDown: Bool, _ simulation: Simulation) {
        // A lapsed heartbeat: last seen just past its TTL. Back up: a fresh one.
        let heartbeat = isDown
            ? HostHeartbeat(lastSeen: simulation.unixNow - 2, ttlSeconds: 1)
            : HostHeartbeat(lastSeen: simulation.unixNow, ttlSeconds: 1e9)
        fleet.heartbeat(host, heartbeat)
        noteChange(simulation)
    }

    /// `GET /api/sessions`.
    func listing(_ simulation: Simulation) -> SessionsReply {
        let down = fleet.downHosts(at: simulation.unixNow)
        let sessions = fleet.sessions.keys.sorted().compactMap { sid -> SessionsReply.Session? in
            let report = fleet.sessions[sid]!
            guard let state = DisplayState.resolve(report, isHostDown: down.contains(report.host)) else { return nil }
            return SessionsReply.Session(sid: sid, report: report, displayState: state, since: watcher.since[sid])
        }
        return SessionsReply(sessions: sessions)
    }

    func deviceReported(_ device: DeviceID, _ profile: DeviceProfile, _ simulation: Simulation) {
        handle(.deviceReported(device, profile, at: simulation.unixNow), simulation)
        noteChange(simulation)
    }

    func appStateReported(_ device: DeviceID, _ appState: DeviceAppState, _ simulation: Simulation) {
        handle(.appStateReported(device, appState, at: simulation.unixNow), simulation)
    }

    func tokenRegistered(_ device: DeviceID, _ kind: TokenKind, _ environment: PushEnvironment, hex: String, _ simulation: Simulation) {
        handle(.tokenRegistered(device, kind, environment, hex: hex, at: simulation.unixNow), simulation)
        noteChange(simulation)
    }

    func endedReported(_ device: DeviceID, _ simulation: Simulation) {
        handle(.endedReported(device, at: simulation.unixNow), simulation)
        noteChange(simulation)
    }

    // MARK: carrying out effects

    private func handle(_ event: WatcherEvent, _ simulation: Simulation) {
        for effect in watcher.handle(event) {
            store.apply(effect)
            switch effect {
            case .send(let batch) where batch.channel != nil: publish(batch, simulation)
            case .send(let batch): deliver(batch, simulation)
            case .log(let line): record(line, simulation)
            case .recordHistory(.started(_, at: _, origin: .pushToStart)): simulation.metrics.serverStarted()
            case .saveDevice, .saveSince, .recordHistory, .saveRetiredChannels, .forgetDevice: break
            case .requestChannel(let request): perform(request, simulation)
            }
        }
    }

    private func record(_ line: DecisionLogLine, _ simulation: Simulation) {
        guard line.event != .send else { return }
        simulation.note("\(name): \(line.event.rawValue) \(line.deviceId) \(Self.summary(line.fields))")
        if line.event == .clientEnded, port == Self.pushPort, let veto = line.strings(.veto) {
            simulation.metrics.endedAgainstActive(line.deviceId, population: veto, simulation)
        }
    }

    /// Asks the simulated APNs' channel management API; the answer comes back as a watcher event.
    private func perform(_ request: ChannelRequest, _ simulation: Simulation) {
        let sentBy = incarnation
        switch request {
        case .create(let device, let env, let policy):
            simulation.createChannel(for: device, env, policy: policy) { [self] answer, simulation in
                guard sentBy == incarnation else { return }
                handle(.channelCreationAnswered(device, env, answer, at: simulation.unixNow), simulation)
                noteChange(simulation)  // as the service does: a start waiting for this channel goes now
            }
        case .delete(let channel):
            simulation.deleteChannel(channel) { [self] answer, simulation in
                guard sentBy == incarnation else { return }
                handle(.channelDeletionAnswered(channel, answer, at: simulation.unixNow), simulation)
            }
        }
    }

    /// Publishes a channel batch; APNs' one answer (no per-device result) goes back to the watcher.
    private func publish(_ batch: PushBatch, _ simulation: Simulation) {
        let sentBy = incarnation
        simulation.publishThroughAPNs(batch) { [self] answer, simulation in
            guard sentBy == incarnation else { return }
            let receipt = PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: [], broadcast: answer)
            handle(.pushAnswered(receipt, at: simulation.unixNow), simulation)
            noteChange(simulation)  // as the service does: what changed while the push was in flight goes now
        }
    }

    /// `GET /api/devices/{id}`: the device's mode and channel, as the watcher holds them.
    func channelInfo(of device: DeviceID) -> DeviceChannelInfo? {
        guard let record = watcher.boxes[device]?.record else { return nil }
        let mode = watcher.mode(of: record)
        return DeviceChannelInfo(
            channelId: mode == .channel ? record.channel.current?.id.rawValue : nil, mode: mode.rawValue)
    }

    /// `POST /api/push/live-activity/channel-card`; false (a 404) when the device has no such channel.
    func channelCardReported(_ device: DeviceID, channelId: String, _ simulation: Simulation) -> Bool {
        let channels = watcher.boxes[device]?.record.channel.channels ?? []
        guard let channel = channels.first(where: { $0.id.rawValue == channelId }) else { return false }
        handle(.channelCardReported(device, channel.id, at: simulation.unixNow), simulation)
        noteChange(simulation)
        return true
    }

    /// Sends every target of `batch` at once; when all have answered, the watcher hears of it.
    private func deliver(_ batch: PushBatch, _ simulation: Simulation) {
        let sentBy = incarnation
        var results = [TokenResult?](repeating: nil, count: batch.targets.count)
        var answered = 0
        for (index, target) in batch.targets.enumerated() {
            simulation.sendThroughAPNs(target, of: batch) { [self] result, simulation in
                results[index] = result
                answered += 1
                guard answered == batch.targets.count, sentBy == incarnation else { return }
                let receipt = PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: results.compactMap { $0 })
                handle(.pushAnswered(receipt, at: simulation.unixNow), simulation)
                noteChange(simulation)
            }
        }
    }

    private static func summary(_ fields: [LogField: LogValue]) -> String {
        fields.keys.map(\.rawValue).sorted().map { key in
            switch fields[LogField(rawValue: key)!]! {
            case .string(let text): "\(key)=\(text)"
            case .number(let number): "\(key)=\(JSONNumber.text(number))"
            case .integer(let number): "\(key)=\(number)"
            case .bool(let flag): "\(key)=\(flag)"
            case .strings(let texts): "\(key)=[\(texts.joined(separator: " "))]"
            }
        }.joined(separator: " ")
    }
}
