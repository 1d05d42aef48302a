import FleetCore

/// One pending wake-up at a wall-clock deadline, for the app's drivers: asking again for the same
/// deadline keeps the pending sleep, a new one replaces it, nil cancels it.
///
/// The drivers' reducers say when they next need the time (`nextTimerDue`, `nextDeadline`); this is the
/// one place that turns that into a sleep on the injected clock, so tests and the simulator move time.
@MainActor
final class DeadlineTimer {
    private let clock: WallClock
    private let sleeper: any Clock<Duration>
    private var task: Task<Void, Never>?
    private var due: UnixTime?

    init(clock: WallClock, sleeper: any Clock<Duration>) {
        self.clock = clock
        self.sleeper = sleeper
    }

    /// Wakes `fire` at `due` (at once when it has passed); nil cancels the pending wake-up.
    func schedule(_ due: UnixTime?, fire: @escaping @MainActor () -> Void) {
        guard due != self.due else { return }
        task?.cancel()
        self.due = due
        guard let due else {
            task = nil
            return
        }
        let wait = max(0, due - clock.now)
        let sleeper = sleeper
        task = Task { [weak self] in
            do {
                try await sleeper.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up))), tolerance: nil)
            } catch {
                return
            }
            guard let self else { return }
            self.due = nil
            fire()
        }
    }

    /// Cancels the pending wake-up.
    func cancel() { schedule(nil) {} }
}
