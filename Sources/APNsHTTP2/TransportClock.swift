/// The transport's monotonic clock: time elapsed since an arbitrary origin. Injected so tests drive
/// request timeouts and keepalive deadlines without sleeping.
public struct TransportClock: Sendable {
    /// The time elapsed since the clock's origin; never goes backwards.
    public let now: @Sendable () -> Duration

    public init(now: @escaping @Sendable () -> Duration) { self.now = now }

    /// The machine's monotonic clock.
    public static var system: TransportClock {
        let origin = ContinuousClock.now
        return TransportClock { ContinuousClock.now - origin }
    }
}
