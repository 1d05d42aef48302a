/// An APNs device token (app, push-to-start, Live Activity update or widget token) as lowercase hex.
///
/// Construction validates: the text must be non-empty, of even length, at most ``maximumLength``
/// characters and hex only. Apple says not to assume a length, so no exact length is required.
/// ``description`` shows only the first 8 characters, so interpolating a token into a log line
/// never leaks it whole.
public struct DeviceToken: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The longest hex text accepted (512 bytes of token); real tokens are 32 to 100 bytes.
    public static let maximumLength = 1024

    /// The whole token, lowercase hex. Use it only to address APNs, never in logs.
    public let hex: String

    /// Validates `hex` (either case) and keeps it lowercased; throws naming what is wrong.
    public init(hex text: String) throws(DeviceTokenError) {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(length: text.utf8.count) }
        guard text.utf8.allSatisfy(Self.isHexDigit) else { throw .notHex(prefix: Self.shorten(text)) }
        guard text.utf8.count.isMultiple(of: 2) else { throw .oddLength(length: text.utf8.count) }
        hex = text.lowercased()
    }

    /// The first 8 hex characters followed by an ellipsis: the only form a log may carry.
    public var shortened: String { Self.shorten(hex) }

    public var description: String { shortened }

    public static func < (lhs: DeviceToken, rhs: DeviceToken) -> Bool { lhs.hex < rhs.hex }

    static func shorten(_ text: String) -> String { String(text.prefix(8)) + "…" }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

/// Why a text is not a device token.
public enum DeviceTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(length: Int)
    case notHex(prefix: String)
    case oddLength(length: Int)

    public var description: String {
        switch self {
        case .empty: "the device token is empty; pass the token's bytes as hex"
        case .tooLong(let length):
            "the device token is \(length) characters long, over \(DeviceToken.maximumLength); pass the token's bytes as hex"
        case .notHex(let prefix):
            "the device token '\(prefix)' holds characters other than 0-9 and a-f; pass the token's bytes as hex"
        case .oddLength(let length):
            "the device token has an odd number of hex characters (\(length)); pass whole bytes as hex"
        }
    }
}
