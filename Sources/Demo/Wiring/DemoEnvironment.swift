import FleetCore

/// The configuration `lfg serve --demo` runs the real server with: Live Activities and privacy mode on, a throwaway
/// signing key, and every APNs URL pointing at the in-process stand-in, whatever the person's own
/// environment says (a demo must never push to Apple or to a real phone).
public enum DemoEnvironment {
    /// The bundle id the demo's pushes are addressed to (the stand-in checks topics against it).
    public static let bundleID = "dev.lfg.demo"
    /// The throwaway key's JWT `kid`.
    public static let keyID = "DEMOKEY001"
    /// The JWT `iss`.
    public static let teamID = "DEMOTEAM01"

    /// `base` (the process environment) with the demo's settings over it. Kept from `base`: the auth
    /// token (`LFG_AUTH_TOKEN`, so a script can call the API), the tick (`LFG_TICK_MS`) and the rest.
    /// - Parameters:
    ///   - home: the demo's data folder (`LFG_HOME`).
    ///   - keyFile: the throwaway key's PEM file.
    ///   - standInURL: the stand-in's `http://` URL (h2c), for both APNs environments.
    ///   - port: the port the demo listens on; it is also the push port, so the watcher pushes.
    public static func make(
        base: [String: String], home: String, keyFile: String, standInURL: String, port: Int
    ) -> [String: String] {
        var environment = base
        environment["LFG_HOME"] = home
        environment["LFG_LIVE_ACTIVITIES"] = "1"
        environment["LFG_APNS_KEY_FILE"] = keyFile
        environment["LFG_APNS_KEY_ID"] = keyID
        environment["LFG_APNS_TEAM_ID"] = teamID
        environment["LFG_APNS_BUNDLE_ID"] = bundleID
        environment["LFG_APNS_SANDBOX_URL"] = standInURL
        environment["LFG_APNS_PRODUCTION_URL"] = standInURL
        environment["LFG_APNS_CA_FILE"] = nil
        environment["LFG_PUSH_PORT"] = String(port == 0 ? DefaultPort.server : port)
        // Privacy mode (contract 8.3) unless the person says LFG_PRIVACY=0: the stand-in's leak check then
        // proves no title, folder, question or option leaves in a push.
        environment["LFG_PRIVACY"] = base["LFG_PRIVACY"] ?? "1"
        return environment
    }
}
