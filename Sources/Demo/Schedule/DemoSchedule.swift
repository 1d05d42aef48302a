import FleetCore

/// What happens when in `lfg serve --demo`: a script of one cycle, repeated, plus host heartbeats.
///
/// A pure value: ``steps(after:through:)`` answers for any window of demo time, so the pacing is tested
/// with a manual clock and the live demo only maps wall time onto it. Each cycle gets fresh session
/// ids (`watcher` in cycle 2 is `watcher-2`), so archived sessions never come back.
public struct DemoSchedule: Hashable, Sendable {
    /// The simulated hosts; each sends a heartbeat every ``heartbeatEvery`` seconds while it is up.
    public var hosts: [HostID]
    /// Seconds between heartbeats.
    public var heartbeatEvery: Double
    /// The heartbeat's `ttlSeconds`: a host silent this long is known down.
    public var hostTTL: Double
    /// Seconds one cycle of the script lasts.
    public var period: Double
    /// One cycle: steps at offsets in `0..<period`, in order; session ids are per-cycle templates.
    public var script: [DemoStep]
    /// Seconds iOS takes to wake the app after a push-to-start in odd cycles (the idle phone); 0 never.
    public var lateWakeDelay: Double

    public init(
        hosts: [HostID], heartbeatEvery: Double, hostTTL: Double, period: Double, lateWakeDelay: Double = 0,
        script: [DemoStep]
    ) {
        self.hosts = hosts
        self.heartbeatEvery = heartbeatEvery
        self.hostTTL = hostTTL
        self.period = period
        self.lateWakeDelay = lateWakeDelay
        self.script = script
    }

    /// Seconds from a push-to-start at demo second `time` until iOS wakes the app to register the new
    /// card's token: at once in even cycles (0, 2, ...), ``lateWakeDelay`` in odd ones.
    public func wakeDelay(afterPushToStartAt time: Double) -> Double {
        guard period > 0 else { return 0 }
        return Int((time / period).rounded(.down)) % 2 == 1 ? lateWakeDelay : 0
    }

    /// Every step in the window `(start, end]` of demo seconds, in time order; at one instant,
    /// heartbeats come first, then the script's steps in script order.
    public func steps(after start: Double, through end: Double) -> [DemoStep] {
        guard end > start, period > 0 else { return [] }
        var steps: [(step: DemoStep, rank: Int)] = []
        let firstCycle = max(0, Int((start / period).rounded(.down)))
        let lastCycle = Int((end / period).rounded(.down))
        if firstCycle <= lastCycle {
            for cycle in firstCycle...lastCycle {
                let base = Double(cycle) * period
                for (index, step) in script.enumerated() where base + step.at > start && base + step.at <= end {
                    let action = step.action.renamingSession { Self.sessionID($0, cycle: cycle) }
                    steps.append((DemoStep(at: base + step.at, action), 1 + index))
                }
            }
        }
        if heartbeatEvery > 0 {
            var beat = max(0, (start / heartbeatEvery).rounded(.down)) * heartbeatEvery
            while beat <= end {
                if beat > start {
                    for host in hosts where !isDown(host, at: beat) { steps.append((DemoStep(at: beat, .heartbeat(host)), 0)) }
                }
                beat += heartbeatEvery
            }
        }
        return steps.sorted { ($0.step.at, $0.rank) < ($1.step.at, $1.rank) }.map(\.step)
    }

    /// Whether `host` is down at demo second `time`: after a `hostGoesDown` and before its `hostComesBack`
    /// in the same cycle.
    public func isDown(_ host: HostID, at time: Double) -> Bool {
        guard period > 0 else { return false }
        let offset = time - (time / period).rounded(.down) * period
        var isDown = false
        for step in script where step.at <= offset {
            switch step.action {
            case .hostGoesDown(host): isDown = true
            case .hostComesBack(host): isDown = false
            default: break
            }
        }
        return isDown
    }

    /// The session id a script template takes in `cycle` (0-based): `watcher` -> `watcher-1`.
    public static func sessionID(_ template: SessionID, cycle: Int) -> SessionID {
        SessionID("\(template.rawValue)-\(cycle + 1)")
    }
}
