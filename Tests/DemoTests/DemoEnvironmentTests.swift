import ControlPlane
import Demo
import Foundation
import Testing

@testable import LFGCommand

@Suite struct DemoEnvironmentTests {
    @Test("The demo pushes only to its stand-in with its throwaway key, whatever APNs settings the person has")
    func demoOverridesRealAPNsSettings() throws {
        let person = [
            "LFG_APNS_KEY_FILE": "/home/me/AuthKey_REAL.p8", "LFG_APNS_KEY_ID": "REALKEY123",
            "LFG_APNS_TEAM_ID": "REALTEAM12", "LFG_APNS_BUNDLE_ID": "com.me.lfg",
            "LFG_APNS_SANDBOX_URL": "https://api.sandbox.push.apple.com",
            "LFG_APNS_PRODUCTION_URL": "https://api.push.apple.com", "LFG_APNS_CA_FILE": "/etc/proxy.pem",
            "LFG_LIVE_ACTIVITIES": "0", "LFG_PUSH_PORT": "9999", "LFG_HOME": "/home/me/.lfg",
            "LFG_AUTH_TOKEN": "script-token", "LFG_TICK_MS": "500",
        ]
        let values = DemoEnvironment.make(
            base: person, home: "/tmp/lfg-demo-x", keyFile: "/tmp/lfg-demo-x/key.p8",
            standInURL: "http://127.0.0.1:4000", port: 8800)
        let config = try ServerConfig.load(environment: values, readFile: { _ in nil })
        #expect(config.home == "/tmp/lfg-demo-x")
        #expect(config.isLiveActivitiesOn && config.apns.missingCredentials.isEmpty)
        #expect(config.apns.keyFile == "/tmp/lfg-demo-x/key.p8")
        #expect(config.apns.bundleId == DemoEnvironment.bundleID)
        #expect(config.apns.sandboxURL == "http://127.0.0.1:4000" && config.apns.productionURL == "http://127.0.0.1:4000")
        #expect(config.apns.caFile == nil)
        #expect(config.pushPort == 8800)
        // Kept, so a script (the dashboard screenshot) can call the API and pace the watcher.
        #expect(config.authToken == "script-token")
        #expect(config.tickMilliseconds == 500)
    }

    @Test("Without LFG_HOME the demo gets a fresh folder under TMPDIR, never ~/.lfg")
    func demoHomeIsFreshUnderTMPDIR() throws {
        let base = FileManager.default.temporaryDirectory.path + "/lfg-demo-home-test-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let first = try DemoParts.demoHome(["TMPDIR": base + "/", "HOME": "/home/me"])
        let second = try DemoParts.demoHome(["TMPDIR": base, "HOME": "/home/me"])
        #expect(first.hasPrefix(base + "/lfg-demo-") && second.hasPrefix(base + "/lfg-demo-"))
        #expect(first != second)
        #expect(FileManager.default.fileExists(atPath: first))
        #expect(try DemoParts.demoHome(["LFG_HOME": base + "/chosen"]) == base + "/chosen")
    }
}
