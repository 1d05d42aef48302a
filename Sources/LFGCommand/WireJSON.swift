import Foundation

/// The one JSON encoding every `lfg` command prints: sorted keys, so the same value is the same bytes.
enum WireJSON {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
