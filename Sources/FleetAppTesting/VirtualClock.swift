import FleetApp
import FleetCore

/// A clock that moves only when told to: for tests and the simulator.
public final class VirtualClock {
    /// The current virtual Unix time in seconds.
    public var now: UnixTime

    public init(now: UnixTime = 1_764_400_000) { self.now = now }

    /// Moves time forward by `seconds` (never backward).
    public func advance(by seconds: Double) { now += max(0, seconds) }

    /// Moves time to `instant` if it is later than now.
    public func advance(to instant: UnixTime) { now = max(now, instant) }

    /// A ``PhoneClock`` that reads this clock.
    public var phoneClock: PhoneClock { PhoneClock { [unowned self] in self.now } }
}
