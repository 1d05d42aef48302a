/// A row's state on the card: only working and needs-input sessions are rows.
///
/// Decoding an unknown string keeps it as ``unrecognized(_:)`` rather than failing the whole
/// content state, so a newer server's state still renders on an older widget.
public enum RowState: Hashable, Sendable, Codable, CustomStringConvertible {
    case working
    case needsInput
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "working": self = .working
        case "needsInput": self = .needsInput
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .working: "working"
        case .needsInput: "needsInput"
        case .unrecognized(let raw): raw
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// One rendered line of the fleet card.
public struct Row: Hashable, Sendable, Codable {
    public var sid: SessionID
    public var title: String
    public var state: RowState
    /// When the session entered `state` (Unix seconds); the elapsed label counts from here locally.
    public var since: UnixTime
    /// Set only on a working row whose session has been silent too long (guard `no-news`): when its last
    /// report arrived (Unix seconds). The row's line reads "No news for 12m", counted locally from here.
    /// Left out of the JSON when nil, so older widgets and every other row are unchanged.
    public var noNewsSince: UnixTime?

    public init(sid: SessionID, title: String, state: RowState, since: UnixTime, noNewsSince: UnixTime? = nil) {
        self.sid = sid
        self.title = title
        self.state = state
        self.since = since
        self.noNewsSince = noNewsSince
    }

    /// Whether the row's session is "no news": working by its last report, silent since.
    public var isNoNews: Bool { noNewsSince != nil }

    enum CodingKeys: String, CodingKey { case sid, title, state, since, noNewsSince }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sid = try container.decode(.sid, default: SessionID(""))
        title = try container.decode(.title, default: "")
        state = try container.decode(.state, default: RowState.working)
        since = try container.decode(.since, default: 0)
        noNewsSince = try container.decodeIfPresent(UnixTime.self, forKey: .noNewsSince)
    }
}
