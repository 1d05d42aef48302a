import FleetCore
import Synchronization

/// One timer for every account's service on an instance: each service says when it next needs a tick
/// with nothing new happening (``ControlPlaneService/nextTickDue``), and the ticker wakes, every
/// `interval`, only the services whose time has come. Thousands of accounts with a phone each cost one
/// timer wake-up per interval and no work for the accounts with nothing due, where each account used to
/// sleep and tick on a timer of its own. Changes still wake a service at once (its own signal).
///
/// A class behind a lock: services schedule themselves without awaiting anything.
public final class InstanceTicker: Sendable {
    /// A service's place in the ticker.
    struct Registration: Hashable, Sendable {
        let id: Int
    }

    private struct State {
        var schedule = WakeSchedule<Int>()
        var signals: [Int: ChangeSignal] = [:]
        var eventHubs: [Int: EventHub] = [:]
        /// Time beaten since the last `/api/events` keepalive.
        var sinceKeepalive = Duration.zero
        var nextId = 0
        var wakeUps = 0
    }

    private let state = Mutex(State())
    private let interval: Duration
    private let clock: any Clock<Duration>
    private let wallClock: WallClock

    /// - Parameter interval: the tick period (`LFG_TICK_MS`): a service due at a time is ticked at the
    ///   first beat at or after it.
    public init(interval: Duration, clock: any Clock<Duration> = ContinuousClock(), wallClock: WallClock = .system) {
        self.interval = interval
        self.clock = clock
        self.wallClock = wallClock
    }

    /// Services woken by the timer so far (for the bench and tests).
    public var timerWakeUps: Int { state.withLock { $0.wakeUps } }

    /// Services registered now.
    public var registeredServices: Int { state.withLock { $0.signals.count } }

    /// Adds a service: `signal` wakes its tick loop, `events` gets a keepalive every
    /// ``EventHub/heartbeatInterval`` (rounded up to whole beats).
    func register(_ signal: ChangeSignal, events: EventHub) -> Registration {
        state.withLock { state in
            defer { state.nextId += 1 }
            state.signals[state.nextId] = signal
            state.eventHubs[state.nextId] = events
            return Registration(id: state.nextId)
        }
    }

    func unregister(_ registration: Registration) {
        state.withLock { state in
            state.signals[registration.id] = nil
            state.eventHubs[registration.id] = nil
            state.schedule.schedule(registration.id, at: nil)
        }
    }

    /// Wakes `registration`'s service at the first beat at or after `time` (nil: not by the timer).
    func schedule(_ registration: Registration, at time: UnixTime?) {
        state.withLock { $0.schedule.schedule(registration.id, at: time) }
    }

    /// Beats every `interval` until cancelled, waking the services due.
    public func run() async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            beat()
        }
    }

    /// Wakes every service due now (one beat), and sends the keepalives when their interval has passed.
    func beat() {
        let now = wallClock.now
        let (due, keepalives) = state.withLock { state in
            let due = state.schedule.takeDue(at: now).compactMap { state.signals[$0] }
            state.wakeUps += due.count
            state.sinceKeepalive += interval
            guard state.sinceKeepalive >= EventHub.heartbeatInterval else { return (due, [EventHub]()) }
            state.sinceKeepalive = .zero
            return (due, Array(state.eventHubs.values))
        }
        for signal in due { signal.notify() }
        for hub in keepalives { hub.heartbeat() }
    }
}
