import FleetApp
import FleetCore
import Synchronization

/// A clock that moves only when told to: for tests and the simulator.
///
/// Sendable (the time sits behind a mutex) so it can back the one ``WallClock`` type, which the
/// server's actors share; uncontended, the lock costs nanoseconds per read.
public final class VirtualClock: Sendable {
    private let time: Mutex<UnixTime>

    /// The current virtual Unix time in seconds.
    public var now: UnixTime {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }

    public init(now: UnixTime = 1_764_400_000) { self.time = Mutex(now) }

    /// Moves time forward by `seconds` (never backward).
    public func advance(by seconds: Double) { now += max(0, seconds) }

    /// Moves time to `instant` if it is later than now.
    public func advance(to instant: UnixTime) { now = max(now, instant) }

    /// The ``WallClock`` that reads this clock.
    public var wallClock: WallClock { WallClock { [unowned self] in self.now } }
}
