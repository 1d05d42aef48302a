/// A string-backed identifier (`SessionID`, `DeviceID`, ...): typed so ids of different kinds never mix,
/// and encoded on the wire as the bare string.
///
/// Conforming types declare only `rawValue` and `init(rawValue:)`; everything else comes from here.
public protocol StringIdentifier: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    WireJSONWritable, ExpressibleByStringLiteral, CustomStringConvertible where RawValue == String
{
    init(rawValue: String)
}

extension StringIdentifier {
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public func write(to writer: inout WireJSONWriter) { writer.string(rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}
