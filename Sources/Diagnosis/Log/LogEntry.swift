import FleetCore

/// One decision-log line, reduced to the fields the diagnosis reads (`FleetCore.DecisionEvent` is the schema).
///
/// Line shape: `{"ts": Double, "event": String, "deviceId": String, ...}`. Fields a line does not
/// carry stay nil; unknown fields are ignored.
public struct LogEntry: Equatable, Sendable {
    /// Unix seconds.
    public var ts: Double
    /// The event; nil for a name the schema does not know (a newer writer): counted, otherwise ignored.
    public var event: DecisionEvent?
    /// The device; a line without one belongs to the legacy device `default`.
    public var deviceId: String
    /// The `action` of `decide`, `send`, `none-accepted`, `partial`, `no-tokens`.
    public var action: PushAction?
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
        ts: Double, event: DecisionEvent?, deviceId: String = "default", action: PushAction? = nil,
        token: String? = nil, status: Int? = nil, reason: String? = nil, tokens: Int? = nil,
        milliseconds: Double? = nil
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
