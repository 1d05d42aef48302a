import FleetCore
import Foundation

/// The source of Unix time for everything written down (JWT `iat`, `aps.timestamp`), injected so
/// tests and the simulator control it.
public struct WallClock: Sendable {
    /// The current Unix time in seconds.
    public let now: @Sendable () -> UnixTime

    public init(now: @escaping @Sendable () -> UnixTime) { self.now = now }

    /// The machine's clock.
    public static let system = WallClock { Date().timeIntervalSince1970 }
}
