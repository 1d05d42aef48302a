import ControlPlane
import FleetApp
import FleetAppTesting
import FleetCore

/// One run of one scenario: the world (truth, servers, APNs, phones), the agenda and the metrics.
///
/// Single-threaded and deterministic: actions run in (virtual instant, sequence) order, and nothing
/// iterates hash-ordered collections where order matters. Time moves only when the loop pops the next
/// action. The script is drawn up front from ``script``; every chance during the run comes from its own
/// keyed stream (``draw(_:_:)``), so a guard switched off changes only what that guard causes.
public final class Simulation {
    /// Simulated time 0 as Unix seconds (2025-11-29 07:06:40 UTC): every `since` and `updatedAt` is after it.
    public static let epoch: UnixTime = 1_764_400_000

    public let guards: GuardSet
    public let ios: IOSVersion
    /// `LFG_STALE_AFTER_S` of every simulated server.
    public var staleAfter: Double = CardPolicy.defaultStaleAfterSeconds
    /// Privacy mode (contract 8.3) on every phone: the servers push wordless states.
    public var privacy = false
    /// Live Activity pushes (token or broadcast) that left carrying words: a title or a question's text.
    /// Privacy mode's leak check in the simulator: it stays 0 whenever ``privacy`` is on.
    public internal(set) var wordedPushes = 0
    /// `LFG_PRIVACY=1` on every simulated server: a device that never said is private.
    public var serversArePrivateByDefault = false
    public let environment: SimulationEnvironment
    public let duration: Double
    /// Seconds since the run began.
    public private(set) var now: Double = 0
    /// The script's generator: workloads, visits, outages, seeded tokens. Drawn while scenarios build.
    var script: SplitMix64
    private let streams: RandomStreams
    private var occurrences = Occurrences()
    var truth = Truth()
    let apns = SimulatedAPNs()
    var servers: [SimulatedServer] = []
    var phones: [Phone] = []
    /// The one clock every phone's ActivityKit and app read: it moves only with the agenda.
    let clock = VirtualClock(now: Simulation.epoch)
    var metrics = MetricsRecorder()
    private var queue = EventQueue<(Simulation) -> Void>()
    /// When set, every notable step is written here as one line ("Reading the evidence").
    var trace: [String]?
    private var nextSessionNumber = 0

    init(seed: UInt64, ios: IOSVersion, guards: GuardSet, environment: SimulationEnvironment, duration: Double) {
        self.ios = ios
        self.script = SplitMix64(seed: seed)
        self.streams = RandomStreams(seed: seed)
        self.guards = guards
        self.environment = environment
        self.duration = duration
    }

    /// The current instant as Unix seconds.
    var unixNow: UnixTime { Self.epoch + now }

    /// Runs `action` at simulated second `time` (never in the past).
    func at(_ time: Double, _ action: @escaping (Simulation) -> Void) {
        queue.schedule(at: max(time, now), action)
    }

    /// Runs `action` `delay` seconds from now.
    func after(_ delay: Double, _ action: @escaping (Simulation) -> Void) { at(now + delay, action) }

    /// Runs every action up to `duration`, evaluating the lock screens after each one.
    func run() -> (ScenarioMetrics, ScenarioDetails) {
        for server in servers { server.start(in: self) }
        metrics.begin(self)
        while let time = queue.nextTime, time <= duration, let (instant, action) = queue.popFirst() {
            now = instant
            clock.advance(to: Self.epoch + instant)
            action(self)
            metrics.observe(self)
        }
        now = duration
        clock.advance(to: Self.epoch + duration)
        return metrics.finish(self)
    }

    /// The generator for the next draw of `kind` keyed by `key` (the n-th draw of that key gets its own).
    func draw(_ kind: RandomStreams.Kind, _ key: String) -> SplitMix64 {
        let count = occurrences.next(kind.rawValue + "/" + key)
        return streams.generator(kind, key + "#" + String(count))
    }

    /// A fresh number for a workload's session id.
    func makeSessionNumber() -> Int {
        nextSessionNumber += 1
        return nextSessionNumber
    }

    /// Records one step of the trace (only when tracing).
    func note(_ text: @autoclosure () -> String) {
        guard trace != nil else { return }
        trace?.append(JSONNumber.text(now) + "s " + text())
    }

    func server(named name: String) -> SimulatedServer? { servers.first { $0.name == name } }
}

// MARK: - What the world does when the truth changes

extension Simulation {
    /// A host reports one session (`PUT /api/sessions/{sid}`); every server and running app hears of it.
    func report(_ report: SessionReport, sid: SessionID) {
        truth.report(report, sid: sid, now: unixNow)
        note("truth: \(sid) busy=\(report.busy) prompt=\(report.prompt != nil) host=\(report.host)")
        for server in servers { server.sessionReported(sid, report, self) }
        for phone in phones {
            // The session event carries the server's baseline as of now: the one from before this change
            // (the watcher reduces it at its next tick), as the service's `session` event does.
            let since = phone.rig.configuration.defaultServer.flatMap { server(named: $0.name)?.watcher.since[sid] }
            phone.observe({ $0.upsert(report, for: sid, since: since) }, self)
        }
    }

    /// A session goes away (`DELETE`).
    func remove(_ sid: SessionID) {
        truth.remove(sid, now: unixNow)
        note("truth: \(sid) removed")
        for server in servers { server.sessionReported(sid, nil, self) }
        for phone in phones { phone.observe({ $0.remove(sid) }, self) }
    }

    /// A host's heartbeat lapses (or resumes): its sessions read `unknown` everywhere.
    func setHost(_ host: HostID, isDown: Bool) {
        truth.setHost(host, isDown: isDown, now: unixNow)
        note("truth: host \(host) \(isDown ? "down" : "up")")
        for server in servers { server.hostChanged(host, isDown: isDown, self) }
        for phone in phones { phone.observe({ $0.setHost(host, health: isDown ? .knownDown : .up) }, self) }
    }
}
