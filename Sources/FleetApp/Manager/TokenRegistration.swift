import FleetCore

/// Which of the two token kinds a registration carries. They have very different lifetimes.
public enum LiveActivityTokenKind: String, Hashable, Sendable, Codable {
    /// A property of the install (`pushToStartTokenUpdates`), re-minted on every launch; outlives every card.
    case pushToStart
    /// A property of one live card (`pushTokenUpdates`); dies with it. The server keeps one per device and env.
    case update
}

/// One token to hand to a server.
public struct TokenRegistration: Hashable, Sendable, Codable {
    public var kind: LiveActivityTokenKind
    public var token: PushToken

    public init(kind: LiveActivityTokenKind, token: PushToken) {
        self.kind = kind
        self.token = token
    }
}

/// Where a registration goes: one server and one token kind. The server keeps one update slot per device.
public struct RegistrationSlot: Hashable, Sendable, Codable {
    public var server: String
    public var kind: LiveActivityTokenKind

    public init(server: String, kind: LiveActivityTokenKind) {
        self.server = server
        self.kind = kind
    }
}

/// The last token each slot accepted in this run of the app, so a token yielded again (a double-fired
/// push-to-start token, a re-observed card) is not sent twice.
///
/// Deliberately not kept across launches: a cache that never expires meant a server that lost a live
/// card's update token (a reset store, a pruned token) was never given it again. Each launch hands the
/// server what iOS yields once more; the server takes a registration idempotently, and one extra call
/// per launch is cheap next to a card nobody can update.
public struct SentTokenCache: Hashable, Sendable, Codable {
    public var entries: [Entry]

    /// One slot's last accepted token.
    public struct Entry: Hashable, Sendable, Codable {
        public var slot: RegistrationSlot
        public var token: PushToken
    }

    public init(entries: [Entry] = []) { self.entries = entries }

    /// The last token `slot` accepted.
    public subscript(slot: RegistrationSlot) -> PushToken? {
        get { entries.first { $0.slot == slot }?.token }
        set {
            entries.removeAll { $0.slot == slot }
            if let newValue { entries.append(Entry(slot: slot, token: newValue)) }
        }
    }
}

/// How long to wait before retrying a failed registration: doubling from ``initial`` up to ``maximum``.
public struct RegistrationBackoff: Hashable, Sendable {
    /// Seconds before the first retry.
    public var initial: Double
    /// Seconds no wait exceeds.
    public var maximum: Double

    public init(initial: Double = 2, maximum: Double = 300) {
        self.initial = initial
        self.maximum = maximum
    }

    /// Seconds to wait after `failures` consecutive failures (1 or more).
    public func delay(afterFailures failures: Int) -> Double {
        var wait = initial
        for _ in 1..<max(1, failures) where wait < maximum { wait *= 2 }
        return min(wait, maximum)
    }
}
