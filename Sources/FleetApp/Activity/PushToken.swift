import FleetCore

/// An APNs token for a Live Activity (push-to-start or update), held as lower-case hex.
///
/// Its `description` shows only the first 8 hex characters: a whole token never reaches a log.
public struct PushToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The whole token, lower-case hex. Send it to the server; never log it.
    public let hex: String

    /// A token from hex text (16 to 512 hex characters, any case), or nil when it is not one.
    public init?(hex: String) {
        guard let normalized = TokenHex.normalized(hex) else { return nil }
        self.hex = normalized
    }

    /// A token from the bytes ActivityKit hands over (`Data`), hex-encoded.
    public init(bytes: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        hex = String(decoding: text, as: UTF8.self)
    }

    /// The first 8 hex characters and an ellipsis: the only form of a token a log may carry.
    public var abbreviated: String { TokenHex.short(hex) + "…" }

    public var description: String { abbreviated }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let token = PushToken(hex: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected 16 to 512 hex characters")
        }
        self = token
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

}
