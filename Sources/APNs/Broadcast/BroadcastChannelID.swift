/// A broadcast channel's id: the base64 text APNs returns in `apns-channel-id` when it creates a
/// channel (reference section 5.3), sent back in `apns-channel-id` to read, delete or publish.
///
/// Construction checks only what APNs documents: non-empty base64 (reference 5.1: do not assume a
/// length). ``description`` shows the first 8 characters, the only form a log may carry (contract 8.1).
public struct BroadcastChannelID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The longest text accepted: a sanity cap far above real ids, not a documented length.
    public static let maximumLength = 1024

    /// The whole id, exactly as APNs gave it.
    public let rawValue: String

    /// Validates `text` as base64 (standard alphabet, optional `=` padding); throws `.badChannelID` otherwise.
    public init(_ text: String) throws(PushRequestError) {
        let bytes = Array(text.utf8)
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        let padding = bytes.count - body.count
        guard !body.isEmpty, bytes.count <= Self.maximumLength, padding <= 2,
            body.allSatisfy(Self.isBase64Digit), bytes[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") })
        else { throw .badChannelID(prefix: String(text.prefix(8))) }
        rawValue = text
    }

    /// The first 8 characters followed by an ellipsis.
    public var shortened: String { String(rawValue.prefix(8)) + "…" }

    public var description: String { shortened }

    public static func < (lhs: BroadcastChannelID, rhs: BroadcastChannelID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    private static func isBase64Digit(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
    }
}

/// A channel's `message-storage-policy`, fixed when it is created (reference section 5.4).
public enum ChannelStoragePolicy: Int, Hashable, Sendable, CaseIterable, Codable {
    /// Nothing is kept for an offline device; every broadcast must carry `apns-expiration: 0`.
    case noStorage = 0
    /// The latest message is kept for an offline device for at most 8 hours.
    case mostRecentMessage = 1

    /// How long APNs keeps a message on a ``mostRecentMessage`` channel at most (reference 5.4).
    public static let storageLimitSeconds: UnixSeconds = 8 * 3600

    /// The `apns-expiration` a broadcast on a channel of this policy must carry (reference 5.4/5.5):
    /// `0` for ``noStorage`` (non-zero is `400 BadExpirationDate`); for ``mostRecentMessage`` `now`
    /// plus `keepFor`, capped at the 8-hour storage limit.
    public func broadcastExpiration(now: UnixSeconds, keepFor: UnixSeconds = storageLimitSeconds) -> PushExpiration {
        switch self {
        case .noStorage: .immediately
        case .mostRecentMessage: .at(now + max(0, min(keepFor, Self.storageLimitSeconds)))
        }
    }
}
