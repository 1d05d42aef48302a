/// What APNs answered one push, as `send`, `broadcast` and `alert` lines record it.
public struct LoggedAnswer: Hashable, Sendable {
    /// The HTTP status; 0 when no answer came (transport failure).
    public var status: Int
    /// APNs' `reason`, or the transport's error text.
    public var reason: String?
    public var apnsId: String?
    /// Round-trip milliseconds.
    public var milliseconds: Double

    public init(status: Int, reason: String? = nil, apnsId: String? = nil, milliseconds: Double) {
        self.status = status
        self.reason = reason
        self.apnsId = apnsId
        self.milliseconds = milliseconds
    }

    var fields: [LogField: LogValue] {
        var fields: [LogField: LogValue] = [.status: .integer(status), .ms: .number(milliseconds)]
        if let reason { fields[.reason] = .string(reason) }
        if let apnsId { fields[.apnsId] = .string(apnsId) }
        return fields
    }
}

extension LogValue {
    /// A token or channel id as the log may show it: its first 8 characters, never the whole.
    static func shortened(_ id: String) -> LogValue { .string(TokenHex.short(id)) }
}
