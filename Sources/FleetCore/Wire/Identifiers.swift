/// Unix time in seconds, as every wire type and log line carries it.
public typealias UnixTime = Double

/// A session's id (`sid`): one coding-agent conversation on a host.
///
/// It keys JSON objects (the `since` map), hence `CodingKeyRepresentable`.
public struct SessionID: StringIdentifier, CodingKeyRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var codingKey: any CodingKey { IdentifierCodingKey(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { rawValue = codingKey.stringValue }
}

/// A host's name: the machine that runs sessions and reports them (`"local"` by default).
public struct HostID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The host a report names when it names none.
    public static let local: HostID = "local"
}

/// One install of the iOS app on one phone; registrations without one belong to ``legacy``.
public struct DeviceID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The seed's single device: one card, one update token per env.
    public static let legacy: DeviceID = "default"
}

/// The APNs environment a token belongs to.
public enum PushEnvironment: String, Hashable, Comparable, Sendable, Codable, CaseIterable {
    case sandbox
    case production
    public static func < (lhs: PushEnvironment, rhs: PushEnvironment) -> Bool { lhs.rawValue < rhs.rawValue }
}

struct IdentifierCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
