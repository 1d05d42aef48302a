import Foundation
import FleetCore

/// The provider's settings from `LFG_APNS_*` (contract section 4).
///
/// Building it only reads the variables; the key file itself is read by ``load(readFile:)`` so
/// that a missing or unreadable file is reported at startup with the variable's name.
public struct APNsConfiguration: Hashable, Sendable {
    public static let defaultSandboxURL = "https://api.sandbox.push.apple.com"
    public static let defaultProductionURL = "https://api.push.apple.com"

    public var keyFile: String
    public var keyID: String
    public var teamID: String
    public var bundleID: BundleID
    public var sandboxURL: String
    public var productionURL: String
    /// An extra CA bundle to trust (tests, proxies).
    public var caFile: String?

    public init(
        keyFile: String, keyID: String, teamID: String, bundleID: BundleID,
        sandboxURL: String = APNsConfiguration.defaultSandboxURL,
        productionURL: String = APNsConfiguration.defaultProductionURL, caFile: String? = nil
    ) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.sandboxURL = sandboxURL
        self.productionURL = productionURL
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
        for (name, url) in [("LFG_APNS_SANDBOX_URL", sandbox), ("LFG_APNS_PRODUCTION_URL", production)]
        where !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            problems.append("\(name) is '\(url)'; give an https:// (TLS) or http:// (cleartext HTTP/2) URL")
        }
        guard problems.isEmpty, let keyFile, let keyID, let teamID, let bundleID else {
            throw APNsConfigurationError(problems: problems)
        }
        self.init(
            keyFile: keyFile, keyID: keyID, teamID: teamID, bundleID: BundleID(bundleID), sandboxURL: sandbox,
            productionURL: production, caFile: value("LFG_APNS_CA_FILE"))
    }

    /// The base URL for tokens of `environment`, without a trailing slash.
    public func baseURL(for environment: PushEnvironment) -> String {
        let url = environment == .sandbox ? sandboxURL : productionURL
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// Reads the key file with `readFile`; throws naming the variable when it is missing or unreadable.
    public func loadKey(readFile: (String) throws -> [UInt8]) throws(APNsConfigurationError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try readFile(keyFile)
        } catch {
            throw APNsConfigurationError(problems: [
                "LFG_APNS_KEY_FILE names '\(keyFile)', which cannot be read (\(error)); point it at the .p8 key file"
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
