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
