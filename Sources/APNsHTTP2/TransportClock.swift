import APNs

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

/// What the transport did with its connections, for an observer (tests, logs, the bench).
/// Reported on the transport's thread: an observer must return at once.
public enum TransportEvent: Hashable, Sendable {
    case connectionOpened(Endpoint)
    /// A keepalive PING went out.
    case pingSent(Endpoint)
    /// A connection was closed as dead: no answer within the request timeout, or no PING ACK.
    case connectionClosed(Endpoint, TransportFailure)
}
