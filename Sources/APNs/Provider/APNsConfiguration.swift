import Foundation
import FleetCore

/// The provider's settings from `LFG_APNS_*` (contract section 4).
///
/// Building it only reads the variables; the key file itself is read by ``load(readFile:)`` so
/// that a missing or unreadable file is reported at startup with the variable's name.
public struct APNsConfiguration: Hashable, Sendable {
    public static let defaultSandboxURL = "https://api.sandbox.push.apple.com"
    public static let defaultProductionURL = "https://api.push.apple.com"
    /// Channel management hosts (reference 5.2, contract 8.1): note the different ports.
    public static let defaultChannelsSandboxURL = "https://api-manage-broadcast.sandbox.push.apple.com:2195"
    public static let defaultChannelsProductionURL = "https://api-manage-broadcast.push.apple.com:2196"

    public var keyFile: String
    public var keyID: String
    public var teamID: String
    public var bundleID: BundleID
    public var sandboxURL: String
    public var productionURL: String
    /// Channel management base URLs (`LFG_APNS_CHANNELS_SANDBOX_URL` / `_PRODUCTION_URL`).
    public var channelsSandboxURL: String
    public var channelsProductionURL: String
    /// Where broadcasts are published (`LFG_APNS_BROADCAST_SANDBOX_URL` / `_PRODUCTION_URL`); nil means the
    /// push URL of the same environment. A setting because Apple's prose and samples disagree on the
    /// host (reference 5.5, section 9 item 5).
    public var broadcastSandboxURL: String?
    public var broadcastProductionURL: String?
    /// An extra CA bundle to trust (tests, proxies).
    public var caFile: String?

    public init(
        keyFile: String, keyID: String, teamID: String, bundleID: BundleID,
        sandboxURL: String = APNsConfiguration.defaultSandboxURL,
        productionURL: String = APNsConfiguration.defaultProductionURL,
        channelsSandboxURL: String = APNsConfiguration.defaultChannelsSandboxURL,
        channelsProductionURL: String = APNsConfiguration.defaultChannelsProductionURL,
        broadcastSandboxURL: String? = nil, broadcastProductionURL: String? = nil, caFile: String? = nil
    ) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.sandboxURL = sandboxURL
        self.productionURL = productionURL
        self.channelsSandboxURL = channelsSandboxURL
        self.channelsProductionURL = channelsProductionURL
        self.broadcastSandboxURL = broadcastSandboxURL
        self.broadcastProductionURL = broadcastProductionURL
        self.caFile = caFile
    }

    /// Reads `LFG_APNS_*` from `environment`; throws naming every missing or malformed variable at once.
    public init(environment: [String: String]) throws(APNsConfigurationError) {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        var problems: [String] = []
        let keyFile = value("LFG_APNS_KEY_FILE")
        let keyID = value("LFG_APNS_KEY_ID")
        let teamID = value("LFG_APNS_TEAM_ID")
        let bundleID = value("LFG_APNS_BUNDLE_ID")
        if keyFile == nil { problems.append("LFG_APNS_KEY_FILE is not set; set it to the .p8 key from the developer account") }
        if keyID == nil { problems.append("LFG_APNS_KEY_ID is not set; set it to the key's 10-character Key ID") }
        if teamID == nil { problems.append("LFG_APNS_TEAM_ID is not set; set it to the 10-character Team ID") }
        if bundleID == nil { problems.append("LFG_APNS_BUNDLE_ID is not set; set it to the app's bundle id") }
        let sandbox = value("LFG_APNS_SANDBOX_URL") ?? Self.defaultSandboxURL
        let production = value("LFG_APNS_PRODUCTION_URL") ?? Self.defaultProductionURL
        let channelsSandbox = value("LFG_APNS_CHANNELS_SANDBOX_URL") ?? Self.defaultChannelsSandboxURL
        let channelsProduction = value("LFG_APNS_CHANNELS_PRODUCTION_URL") ?? Self.defaultChannelsProductionURL
        let broadcastSandbox = value("LFG_APNS_BROADCAST_SANDBOX_URL")
        let broadcastProduction = value("LFG_APNS_BROADCAST_PRODUCTION_URL")
        let urls = [
            ("LFG_APNS_SANDBOX_URL", sandbox), ("LFG_APNS_PRODUCTION_URL", production),
            ("LFG_APNS_CHANNELS_SANDBOX_URL", channelsSandbox), ("LFG_APNS_CHANNELS_PRODUCTION_URL", channelsProduction),
        ] + [("LFG_APNS_BROADCAST_SANDBOX_URL", broadcastSandbox), ("LFG_APNS_BROADCAST_PRODUCTION_URL", broadcastProduction)]
            .compactMap { name, url in url.map { (name, $0) } }
        for (name, url) in urls where !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            problems.append("\(name) is '\(url)'; give an https:// (TLS) or http:// (cleartext HTTP/2) URL")
        }
        guard problems.isEmpty, let keyFile, let keyID, let teamID, let bundleID else {
            throw APNsConfigurationError(problems: problems)
        }
        self.init(
            keyFile: keyFile, keyID: keyID, teamID: teamID, bundleID: BundleID(bundleID), sandboxURL: sandbox,
            productionURL: production, channelsSandboxURL: channelsSandbox, channelsProductionURL: channelsProduction,
            broadcastSandboxURL: broadcastSandbox, broadcastProductionURL: broadcastProduction,
            caFile: value("LFG_APNS_CA_FILE"))
    }

    /// The base URL for tokens of `environment`, without a trailing slash.
    public func baseURL(for environment: PushEnvironment) -> String {
        Self.trimmed(environment == .sandbox ? sandboxURL : productionURL)
    }

    /// Where broadcasts for `environment` are published, without a trailing slash: the broadcast URL when
    /// set, else the push URL of the same environment (contract 8.1).
    public func broadcastBaseURL(for environment: PushEnvironment) -> String {
        let override = environment == .sandbox ? broadcastSandboxURL : broadcastProductionURL
        return override.map(Self.trimmed) ?? baseURL(for: environment)
    }

    /// The channel management base URL for `environment`, without a trailing slash (reference 5.2).
    public func channelsBaseURL(for environment: PushEnvironment) -> String {
        Self.trimmed(environment == .sandbox ? channelsSandboxURL : channelsProductionURL)
    }

    /// The base URL a push to `destination` goes to: the push host for a token, the broadcast host for a channel.
    public func baseURL(for destination: PushDestination, environment: PushEnvironment) -> String {
        switch destination {
        case .device: baseURL(for: environment)
        case .channel: broadcastBaseURL(for: environment)
        }
    }

    private static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    /// Reads the key file with `readFile`; throws naming the variable when it is missing or unreadable.
    public func loadKey(readFile: (String) throws -> [UInt8]) throws(APNsConfigurationError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try readFile(keyFile)
        } catch {
            throw APNsConfigurationError(problems: [
                "cannot read LFG_APNS_KEY_FILE \(keyFile): \(error); point it at the .p8 key file"
            ])
        }
        guard !bytes.isEmpty else {
            throw APNsConfigurationError(problems: ["LFG_APNS_KEY_FILE names '\(keyFile)', which is empty"])
        }
        return bytes
    }
}

/// Why the APNs configuration is unusable: one line per problem, each saying what to set.
public struct APNsConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let problems: [String]
    public init(problems: [String]) { self.problems = problems }
    public var description: String { problems.joined(separator: "; ") }
}
