/// A string enum read from outside input whose error names the allowed values, not a Swift type
/// (`unknown value 'dance'; use question, permission, plan or signin`).
public protocol WireChoice: RawRepresentable, CaseIterable, Decodable where RawValue == String {}

extension WireChoice {
    /// The allowed values in words: `a, b or c`.
    public static var choicesText: String {
        let names = allCases.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// Reads one of the allowed values; anything else is a `dataCorrupted` error that lists them.
    public init(choosingFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown value '\(text)'; use \(Self.choicesText)")
        }
        self = value
    }
}
