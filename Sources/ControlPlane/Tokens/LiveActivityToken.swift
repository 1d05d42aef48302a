import FleetCore

/// Which ActivityKit token a registration carries.
public enum TokenKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A property of the install (re-minted about every launch): the only way to create a card on a sleeping phone.
    case pushToStart
    /// A property of one live card: the only way to update or end it; dies with the card.
    case update
}

/// One registered Live Activity token of one device.
public struct LiveActivityToken: Hashable, Sendable, Codable {
    public var kind: TokenKind
    public var env: PushEnvironment
    /// Lower-case hex, 16 to 512 characters (see ``TokenHex``).
    public var hex: String
    /// When it was (last) registered, Unix seconds.
    public var registeredAt: UnixTime

    public init(kind: TokenKind, env: PushEnvironment, hex: String, registeredAt: UnixTime) {
        self.kind = kind
        self.env = env
        self.hex = hex
        self.registeredAt = registeredAt
    }

    /// The only form of a token that may appear in a log or an API answer: its first 8 hex characters.
    public var shortHex: String { TokenHex.short(hex) }

    /// Where a push for this token goes.
    public var target: PushTarget { PushTarget(kind: kind, env: env, hex: hex) }
}

/// The hex form of an APNs token: validation and the loggable short form.
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
