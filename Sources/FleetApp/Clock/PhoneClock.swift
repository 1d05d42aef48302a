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
