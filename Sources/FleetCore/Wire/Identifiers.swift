/// Unix time in seconds, as every wire type and log line carries it.
public typealias UnixTime = Double

/// A session's id (`sid`): one coding-agent conversation on a host.
public struct SessionID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CodingKeyRepresentable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var codingKey: any CodingKey { SessionCodingKey(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { rawValue = codingKey.stringValue }
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// A host's name: the machine that runs sessions and reports them (`"local"` by default).
public struct HostID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public static func < (lhs: HostID, rhs: HostID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
    /// The host a report names when it names none.
    public static let local: HostID = "local"
}

/// One install of the iOS app on one phone; registrations without one belong to ``legacy``.
public struct DeviceID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
    /// The seed's single device: one card, one update token per env.
    public static let legacy: DeviceID = "default"
}

/// The APNs environment a token belongs to.
public enum PushEnvironment: String, Hashable, Comparable, Sendable, Codable, CaseIterable {
    case sandbox
    case production
    public static func < (lhs: PushEnvironment, rhs: PushEnvironment) -> Bool { lhs.rawValue < rhs.rawValue }
}

struct SessionCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
