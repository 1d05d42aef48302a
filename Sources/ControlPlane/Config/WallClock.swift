import FleetCore
import Foundation

/// Where the control plane reads the time of day (Unix seconds): injected, so tests and the simulator
/// decide what "now" is. Intervals use a `Clock<Duration>` instead.
public struct WallClock: Sendable {
    public let now: @Sendable () -> UnixTime

    public init(_ now: @escaping @Sendable () -> UnixTime) { self.now = now }

    /// The system's clock.
    public static let system = WallClock { Date().timeIntervalSince1970 }
}
