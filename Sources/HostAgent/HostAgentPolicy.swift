/// The host agent's timing, defined once: how often it heartbeats, the TTL it promises, how soon it
/// tries an unreachable server again.
public struct HostAgentPolicy: Hashable, Sendable {
    /// Seconds between two heartbeats while the server answers.
    public var heartbeatInterval: Double
    /// The TTL each heartbeat promises (`PUT /api/hosts/{host}` `ttlSeconds`): three intervals, so one
    /// lost or late heartbeat never reads as a sleeping laptop, and a laptop that sleeps reads `unknown`
    /// within a minute.
    public var ttlSeconds: Double
    /// Seconds before trying an unreachable (or refusing) server again: short, so a server that comes
    /// back gets the hook inbox within seconds, and cheap (one failed connect).
    public var retryInterval: Double

    public init(heartbeatInterval: Double = 20, ttlSeconds: Double? = nil, retryInterval: Double = 5) {
        self.heartbeatInterval = heartbeatInterval
        self.ttlSeconds = ttlSeconds ?? heartbeatInterval * 3
        self.retryInterval = retryInterval
    }

    public static let standard = HostAgentPolicy()
}
