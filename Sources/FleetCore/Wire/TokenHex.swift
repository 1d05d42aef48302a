/// The one rule for an APNs token's hex form (contract section 5): whole bytes (an even number of hex
/// digits, either case, kept lower-case), 16 to 512 digits. The API's validation, the app's tokens and
/// the APNs sender (`APNs.DeviceToken`) all use it, so a token the API accepts is one the sender can send.
public enum TokenHex {
    /// The accepted length range, in hex characters (contract section 5).
    public static let lengths = 16...512

    /// Why a text is not a token.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// Outside ``TokenHex/lengths`` (0 for an empty text).
        case length(Int)
        /// Holds a character other than 0-9, a-f, A-F; `prefix` is the text's first 8 characters.
        case notHex(prefix: String)
        /// An odd number of hex digits: not whole bytes.
        case oddLength(length: Int)

        public var description: String {
            switch self {
            case .length(let length):
                "must be \(TokenHex.lengths.lowerBound) to \(TokenHex.lengths.upperBound) hexadecimal characters (whole bytes), not \(length)"
            case .notHex(let prefix): "must be hexadecimal characters only ('\(prefix)…' is not)"
            case .oddLength(let length):
                "must be whole bytes: an even number of hexadecimal characters, not \(length)"
            }
        }
    }

    /// The token lower-cased, or the ``Problem`` with it.
    public static func validated(_ text: String) throws(Problem) -> String {
        let length = text.utf8.count
        guard lengths.contains(length) else { throw .length(length) }
        guard text.utf8.allSatisfy({ isHexDigit($0) }) else { throw .notHex(prefix: short(text)) }
        guard length.isMultiple(of: 2) else { throw .oddLength(length: length) }
        return text.lowercased()
    }

    /// The token lower-cased, or nil when it breaks the rule.
    public static func normalized(_ text: String) -> String? {
        do { return try validated(text) } catch { return nil }
    }

    /// The first 8 characters: never log or show more of a token.
    public static func short(_ hex: String) -> String { String(hex.prefix(8)) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
