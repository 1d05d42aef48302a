import FleetCore
import Foundation

/// Where the app's drivers read the time (Unix seconds); injected so a simulation runs in virtual time.
///
/// Decision code never reads it: the controller and the manager take `now` as a parameter, and the
/// drivers (``FleetAppEngine``, ``InMemoryActivityHost``) read it once per entry point.
public struct PhoneClock {
    private let read: () -> UnixTime

    /// A clock that answers `read()`.
    public init(_ read: @escaping () -> UnixTime) { self.read = read }

    /// The current Unix time in seconds.
    public var now: UnixTime { read() }

    /// The device's real clock: the one live clock type.
    public static var system: PhoneClock { PhoneClock { Date().timeIntervalSince1970 } }
}

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
