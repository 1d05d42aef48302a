/// The hex form of an APNs token as the API takes it: validation and the loggable short form.
///
/// One rule for the server (which validates registrations) and the app (which sends them).
public enum TokenHex {
    /// The accepted length range, in hex characters (contract section 5).
    public static let lengths = 16...512

    /// The token lower-cased, or nil when it is not 16 to 512 hex characters.
    public static func normalized(_ text: String) -> String? {
        guard lengths.contains(text.utf8.count) else { return nil }
        guard text.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return text.lowercased()
    }

    /// The first 8 characters: never log or show more of a token.
    public static func short(_ hex: String) -> String { String(hex.prefix(8)) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
