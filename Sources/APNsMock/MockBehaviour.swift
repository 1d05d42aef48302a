import APNs

/// How the stand-in answers pushes to one token.
public enum MockBehaviour: Hashable, Sendable, CustomStringConvertible {
    /// 200, and the push counts as delivered.
    case live
    /// 200, but the push is dropped: how APNs treats a dead Live Activity token.
    case deadButAccepted
    /// 410 `Unregistered` with a timestamp.
    case unregistered
    /// 400 `BadDeviceToken`.
    case badDeviceToken
    /// `status` with `reason` for the next `count` pushes, then the behaviour before it.
    case failing(status: Int, reason: APNsReason, count: Int)

    /// The control-surface name: `live`, `dead-but-200`, `unregistered`, `bad-device-token`, `fail`.
    public var name: String {
        switch self {
        case .live: "live"
        case .deadButAccepted: "dead-but-200"
        case .unregistered: "unregistered"
        case .badDeviceToken: "bad-device-token"
        case .failing: "fail"
        }
    }

    public var description: String {
        if case .failing(let status, let reason, let count) = self { return "fail \(status) \(reason) x\(count)" }
        return name
    }

    /// Parses a control-surface name; `fail` takes a status (default 503), reason and count (default 1).
    public init?(name: String, status: Int? = nil, reason: String? = nil, count: Int? = nil) {
        switch name {
        case "live": self = .live
        case "dead-but-200", "dead": self = .deadButAccepted
        case "unregistered", "410": self = .unregistered
        case "bad-device-token", "400": self = .badDeviceToken
        case "fail":
            let status = status ?? 503
            let fallback: APNsReason = status == 500 ? .internalServerError : status == 429 ? .tooManyRequests : .serviceUnavailable
            self = .failing(status: status, reason: reason.map(APNsReason.init(rawValue:)) ?? fallback, count: max(1, count ?? 1))
        default: return nil
        }
    }
}

/// A one-shot connection-level fault, for testing how a client survives it.
public enum MockFault: Hashable, Sendable {
    /// After answering `requests` more requests, send GOAWAY naming the last answered stream, then
    /// refuse (reset) every later stream on that connection and close it.
    case goAwayAfter(requests: Int)
    /// When the `requests`-th next request arrives, close the connection without answering it.
    case dropConnectionAt(request: Int)
    /// When the `request`-th next request arrives, go silent on that connection: never answer, never read
    /// again, never close (a peer that died without a FIN, for dead-connection detection).
    case goSilentAt(request: Int)
    /// Answer every push with `403 ExpiredProviderToken` until a token issued later than the one
    /// in use arrives (forces a provider-token refresh).
    case expireProviderTokens
}
