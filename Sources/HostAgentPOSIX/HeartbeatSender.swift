import HostAgent

/// How the host agent tells the server it is up: one `PUT /api/hosts/{host}` per heartbeat
/// (``HeartbeatMessage`` defines the request). ``SocketHeartbeat`` sends it over plain HTTP;
/// `HostAgentCurl.CurlHeartbeat` over TLS.
public protocol HeartbeatSender {
    /// Sends one heartbeat promising to call again within `ttlSeconds`; never throws, never blocks longer
    /// than its own timeout.
    func send(ttlSeconds: Double) -> HeartbeatOutcome
}
