import FleetCore

/// One control plane the app talks to (`lfg serve` on some machine).
public struct ServerProfile: Hashable, Sendable, Codable {
    /// A name the person gave it, unique among the app's servers.
    public var name: String
    /// The base URL, e.g. `https://mac.example.ts.net:8766`.
    public var baseURL: String
    /// The bearer token the server printed at setup.
    public var bearerToken: String

    public init(name: String, baseURL: String, bearerToken: String) {
        self.name = name
        self.baseURL = baseURL
        self.bearerToken = bearerToken
    }
}

/// What the app knows about itself: its device id, its APNs environment and its servers.
public struct AppConfiguration: Hashable, Sendable {
    public var deviceID: DeviceID
    public var environment: PushEnvironment
    /// The default server first is not required; ``defaultServer`` names it.
    public var servers: [ServerProfile]
    /// The name of the server tokens and card reports go to.
    public var defaultServerName: String
    /// iOS 18+: the app asks its default server for a broadcast channel and requests its own cards on it
    /// (`pushType: .channel(id)`), so no per-card token has to reach the server (contract 8.1).
    public var requestsChannelCards: Bool = false
    /// Privacy mode (contract 8.3): the server's pushes carry no words; nil leaves it to the server's default.
    public var privacy: Bool?
    /// The `sealKey` the app registers (base64 of its P-256 key's 65-byte point), so alerts arrive sealed.
    public var sealKey: String?
    /// How far ahead the stale date of the app's own requests and updates is (the server's
    /// `LFG_STALE_AFTER_S` default; see ``CardStaleness``).
    public var cardStaleAfter: Double = CardStaleness.defaultStaleAfterSeconds

    public init(deviceID: DeviceID, environment: PushEnvironment, servers: [ServerProfile], defaultServerName: String) {
        self.deviceID = deviceID
        self.environment = environment
        self.servers = servers
        self.defaultServerName = defaultServerName
    }

    /// The server tokens and card reports go to, or nil when none is configured.
    public var defaultServer: ServerProfile? {
        servers.first { $0.name == defaultServerName } ?? servers.first
    }

    /// The servers a token registration or an `/ended` report goes to: the default one only.
    ///
    /// Registering with every configured server made each one's watcher push-start its own card: two
    /// servers, two cards on the lock screen (guard `default-host-only`).
    public func registrationTargets(guards: GuardSet) -> [ServerProfile] {
        guard guards.isOn(.defaultHostOnly) else { return servers }
        return defaultServer.map { [$0] } ?? []
    }
}
