/// One decision-log line, reduced to the fields the diagnosis reads (CONTRACT section 7).
///
/// Line shape: `{"ts": Double, "event": String, "deviceId": String, ...}`. Fields a line does not
/// carry stay nil; unknown fields are ignored.
public struct LogEntry: Equatable, Sendable {
    /// Unix seconds.
    public var ts: Double
    /// `decide`, `send`, `no-tokens`, `none-accepted`, `partial`, `client-ended`, `adopted`,
    /// `start-vetoed`, `token-pruned`, or anything newer (counted, otherwise ignored).
    public var event: String
    /// The device; a line without one belongs to the legacy device `default`.
    public var deviceId: String
    /// `start`, `update` or `end` on `decide`, `send`, `none-accepted`, `partial`, `no-tokens`.
    public var action: String?
    /// The first 8 hex characters of a token (`send`, `token-pruned`, `adopted`).
    public var token: String?
    /// APNs HTTP status on `send`.
    public var status: Int?
    /// APNs reason on `send` (or why a token was pruned).
    public var reason: String?
    /// How many tokens a `decide` addressed.
    public var tokens: Int?
    /// Round-trip milliseconds of a `send`.
    public var milliseconds: Double?

    public init(
        ts: Double, event: String, deviceId: String = "default", action: String? = nil, token: String? = nil,
        status: Int? = nil, reason: String? = nil, tokens: Int? = nil, milliseconds: Double? = nil
    ) {
        self.ts = ts
        self.event = event
        self.deviceId = deviceId
        self.action = action
        self.token = token
        self.status = status
        self.reason = reason
        self.tokens = tokens
        self.milliseconds = milliseconds
    }
}
