import FleetCore

/// Why a delivery stopped with reports or events still pending (they stay, in order, for the next one).
public enum DeliveryStop: Hashable, Sendable, CustomStringConvertible {
    /// Another process holds this session's turn; it delivers what this call recorded.
    case anotherProcessDelivers
    /// The time budget is spent.
    case outOfTime
    /// A request timed out recently; hooks leave the server alone until then (Unix seconds).
    case serverPaused(until: UnixTime)
    /// The server refused the token (401), now or earlier for this same token.
    case unauthorized
    /// Not delivered for now (unreachable, 5xx): the server's or the transport's words.
    case failed(String)
    /// The session's record could not be written (the events stay recorded).
    case cannotSave(String)

    public var description: String {
        switch self {
        case .anotherProcessDelivers: "another process is delivering this session; it takes this event too"
        case .outOfTime: "out of time"
        case .serverPaused(let until): "the server timed out recently; next try after \(Int(until))"
        case .unauthorized: "the server refused the token (HTTP 401)"
        case .failed(let reason): reason
        case .cannotSave(let reason): "cannot save the session's record (\(reason))"
        }
    }
}
