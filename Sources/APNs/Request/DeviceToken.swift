import FleetCore

/// An APNs device token (app, push-to-start, Live Activity update or widget token) as lowercase hex.
///
/// Construction validates with the one token rule, ``FleetCore/TokenHex``: whole bytes, 16 to 512 hex
/// digits; the API validates registrations with the same rule, so every token it accepts can be sent.
/// Apple says not to assume a length, so no exact length is required.
/// ``description`` shows only the first 8 characters, so interpolating a token into a log line
/// never leaks it whole.
public struct DeviceToken: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The whole token, lowercase hex. Use it only to address APNs, never in logs.
    public let hex: String

    /// Validates `hex` (either case) and keeps it lowercased; throws naming what is wrong.
    public init(hex text: String) throws(DeviceTokenError) {
        do {
            hex = try TokenHex.validated(text)
        } catch {
            switch error {
            case .length(0): throw .empty
            case .length(let length): throw .badLength(length: length)
            case .notHex: throw .notHex(prefix: Self.shorten(text))
            case .oddLength(let length): throw .oddLength(length: length)
            }
        }
    }

    /// The first 8 hex characters followed by an ellipsis: the only form a log may carry.
    public var shortened: String { Self.shorten(hex) }

    public var description: String { shortened }

    public static func < (lhs: DeviceToken, rhs: DeviceToken) -> Bool { lhs.hex < rhs.hex }

    static func shorten(_ text: String) -> String { String(text.prefix(8)) + "…" }
}

/// Why a text is not a device token.
public enum DeviceTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    /// Outside ``FleetCore/TokenHex/lengths``.
    case badLength(length: Int)
    case notHex(prefix: String)
    case oddLength(length: Int)

    public var description: String {
        switch self {
        case .empty: "the device token is empty; pass the token's bytes as hex"
        case .badLength(let length):
            "the device token is \(length) hex characters long, not \(TokenHex.lengths.lowerBound) to \(TokenHex.lengths.upperBound); pass the token's bytes as hex"
        case .notHex(let prefix):
            "the device token '\(prefix)' holds characters other than 0-9 and a-f; pass the token's bytes as hex"
        case .oddLength(let length):
            "the device token has an odd number of hex characters (\(length)); pass whole bytes as hex"
        }
    }
}
