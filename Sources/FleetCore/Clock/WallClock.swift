// Not Foundation: FleetCore is linked into the Foundation-free processes (`lfg-hook`, `lfg-host`), and
// Foundation costs them ~30 MB resident and most of their start-up time.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one source of Unix time (seconds) for everything that reads the wall clock: the server's
/// watcher and API, the APNs provider (JWT `iat`, `aps.timestamp`), the hook, and the app's drivers.
///
/// Injected everywhere so tests and the simulator run in virtual time. Decision code never reads it:
/// reducers take `now` as a parameter, and the drivers read the clock once per entry point.
/// (A monotonic clock for durations is a different concept: `TransportClock`, `ContinuousClock`.)
public struct WallClock: Sendable {
    private let read: @Sendable () -> UnixTime

    /// A clock that answers `now()` (also written `WallClock { ... }`).
    public init(now: @escaping @Sendable () -> UnixTime) { self.read = now }

    /// The current Unix time in seconds.
    public var now: UnixTime { read() }

    /// The machine's (or the phone's) real clock: the one place live wall time is read.
    public static let system = WallClock(now: {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UnixTime(time.tv_sec) + UnixTime(time.tv_nsec) / 1_000_000_000
    })
}
