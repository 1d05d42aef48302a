import FleetCore
import Foundation

/// The control plane's configuration (contract section 4): the process environment first, then
/// `$LFG_HOME/.env` (the environment wins).
public struct ServerConfig: Hashable, Sendable {
    public var home: String
    public var authToken: String?
    public var isLiveActivitiesOn: Bool
    public var pushPort: Int
    public var tickMilliseconds: Int
    /// `LFG_STALE_AFTER_S`: every start and update carries `stale-date` = push time + this.
    public var staleAfterSeconds: Int
    /// `LFG_QUESTION_TTL_S`: seconds until a question whose prompt gives no `expiresAt` expires.
    public var questionLifetimeSeconds: Int = defaultQuestionLifetimeSeconds
    /// `LFG_PUBLIC_URL`: the base URL a phone reaches this server at (e.g. `https://mac.example.ts.net:8766`),
    /// carried by pairing links; nil: the address `lfg serve` listens on.
    public var publicURL: String?
    /// `LFG_PRIVACY=1`: every device that does not say otherwise is private (contract 8.3).
    public var isPrivacyDefault: Bool = false
    /// `LFG_NO_NEWS_AFTER_S`: a busy session silent this long (its host up) reads as "no news" (``SilenceRule``).
    public var noNewsAfterSeconds: Int = Int(SilenceRule.defaultSeconds)
    public var apns: APNsSettings
    /// `LFG_DATABASE_URL` (contract 8.4): a `postgres://` URL selects PostgreSQL instead of `$LFG_HOME/lfg.sqlite`.
    public var databaseURL: String?
    /// `LFG_LEASE_TTL_MS`: with `LFG_DATABASE_URL`, how long a device's lease outlives its instance's last
    /// renewal (renewed every third of it): the takeover time after a kill -9.
    public var leaseTTLMilliseconds: Int = defaultLeaseTTLMilliseconds
    /// ``leaseTTLMilliseconds`` in seconds, as leases are written and the director is given it.
    public var leaseTTL: Double { Double(leaseTTLMilliseconds) / 1000 }
    /// `LFG_DATABASE_SCHEMA`: the PostgreSQL schema holding LFG's tables (`public`), so several LFG
    /// deployments (or test runs) can share one database.
    public var databaseSchema: String = "public"
    public static let defaultLeaseTTLMilliseconds = 3000
    /// The default lease lifetime in seconds (what services use when nobody sets theirs).
    public static var defaultLeaseTTL: Double { Double(defaultLeaseTTLMilliseconds) / 1000 }
    /// Every variable as read (process environment over `.env`), for adapters that read their own.
    public var values: [String: String]

    /// The APNs settings (`LFG_APNS_*`).
    public struct APNsSettings: Hashable, Sendable {
        public var keyFile: String?
        public var keyId: String?
        public var teamId: String?
        public var bundleId: String?
        public var sandboxURL: String
        public var productionURL: String
        public var caFile: String?

        /// The names of the credential variables that are missing (empty when complete).
        public var missingCredentials: [String] {
            [("LFG_APNS_KEY_FILE", keyFile), ("LFG_APNS_KEY_ID", keyId), ("LFG_APNS_TEAM_ID", teamId),
             ("LFG_APNS_BUNDLE_ID", bundleId)]
                .filter { $0.1?.isEmpty ?? true }.map(\.0)
        }
    }

    public static let defaultPushPort = DefaultPort.server
    public static let defaultTickMilliseconds = 2000
    /// Claude Code's own default hook timeout, so an unanswered question lives as long as a waiting hook can.
    public static let defaultQuestionLifetimeSeconds = 600

    /// The watcher's card policy with this configuration's stale date.
    public var cardPolicy: CardPolicy {
        var policy = CardPolicy(staleAfter: Double(staleAfterSeconds), privacyByDefault: isPrivacyDefault)
        policy.silence = SilenceRule(noNewsAfter: Double(noNewsAfterSeconds))
        return policy
    }

    /// Reads the configuration from `environment`, merged over the `.env` text of its home (if any).
    ///
    /// - Parameter readFile: returns a file's text, or nil when it does not exist (injected for tests).
    /// - Throws: ``ConfigError`` naming the variable that is wrong and what it must be.
    public static func load(
        environment: [String: String], readFile: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
    ) throws(ConfigError) -> ServerConfig {
        let home = environment["LFG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.lfg")
        let fromFile = readFile(home + "/.env").map(DotEnv.parse) ?? [:]
        let values = fromFile.merging(environment) { _, process in process }
        func value(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }
        func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
            guard let text = value(name) else { return defaultValue }
            guard let number = Int(text), range.contains(number) else {
                throw ConfigError(variable: name, message: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
        var config = ServerConfig(
            home: home,
            authToken: value("LFG_AUTH_TOKEN"),
            isLiveActivitiesOn: value("LFG_LIVE_ACTIVITIES") == "1",
            pushPort: try integer("LFG_PUSH_PORT", default: defaultPushPort, in: 1...65535),
            tickMilliseconds: try integer("LFG_TICK_MS", default: defaultTickMilliseconds, in: 10...3_600_000),
            staleAfterSeconds: try integer(
                "LFG_STALE_AFTER_S", default: Int(CardPolicy.defaultStaleAfterSeconds), in: 60...Int(CardPolicy.cardLifetimeSeconds)),
            apns: APNsSettings(
                keyFile: value("LFG_APNS_KEY_FILE"), keyId: value("LFG_APNS_KEY_ID"), teamId: value("LFG_APNS_TEAM_ID"),
                bundleId: value("LFG_APNS_BUNDLE_ID"),
                sandboxURL: value("LFG_APNS_SANDBOX_URL") ?? "https://api.sandbox.push.apple.com",
                productionURL: value("LFG_APNS_PRODUCTION_URL") ?? "https://api.push.apple.com",
                caFile: value("LFG_APNS_CA_FILE")),
            values: values)
        if let url = value("LFG_DATABASE_URL") {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw ConfigError(
                    variable: "LFG_DATABASE_URL",
                    message: "must be a postgres:// or postgresql:// URL (unset it to use $LFG_HOME/lfg.sqlite)")
            }
            config.databaseURL = url
        }
        if let schema = value("LFG_DATABASE_SCHEMA") { config.databaseSchema = schema }
        config.leaseTTLMilliseconds = try integer(
            "LFG_LEASE_TTL_MS", default: defaultLeaseTTLMilliseconds, in: 300...600_000)
        config.questionLifetimeSeconds = try integer(
            "LFG_QUESTION_TTL_S", default: defaultQuestionLifetimeSeconds, in: 1...86_400)
        switch value("LFG_PRIVACY") {
        case nil, "0": config.isPrivacyDefault = false
        case "1": config.isPrivacyDefault = true
        case let other?: throw ConfigError(variable: "LFG_PRIVACY", message: "must be 1 (on) or 0 (off), not '\(other)'")
        }
        config.noNewsAfterSeconds = try integer("LFG_NO_NEWS_AFTER_S", default: Int(SilenceRule.defaultSeconds), in: 10...86_400)
        if let url = value("LFG_PUBLIC_URL") {
            do { config.publicURL = try PairingLink(parsing: PairingLink(server: url, code: "check").text).server } catch {
                throw ConfigError(variable: "LFG_PUBLIC_URL", message: "must be http:// or https:// and a host, as a phone reaches this server, not '\(url)'")
            }
        }
        return config
    }
}

/// A configuration variable with a value the server cannot use.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var variable: String
    public var message: String
    public var description: String { "\(variable) \(message)" }
}
