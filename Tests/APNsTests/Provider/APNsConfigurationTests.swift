import APNs
import Testing

@Suite struct APNsConfigurationTests {
    let complete = [
        "LFG_APNS_KEY_FILE": "/keys/AuthKey.p8", "LFG_APNS_KEY_ID": "KEY1234567", "LFG_APNS_TEAM_ID": "TEAM123456",
        "LFG_APNS_BUNDLE_ID": "dev.lfg.app",
    ]

    @Test("A complete environment gives the configuration with Apple's URLs by default")
    func defaults() throws {
        let configuration = try APNsConfiguration(environment: complete)
        #expect(configuration.keyID == "KEY1234567")
        #expect(configuration.baseURL(for: .sandbox) == "https://api.sandbox.push.apple.com")
        #expect(configuration.baseURL(for: .production) == "https://api.push.apple.com")
        #expect(configuration.caFile == nil)
    }

    @Test("URL overrides and the CA file are honoured, a trailing slash dropped")
    func overrides() throws {
        var environment = complete
        environment["LFG_APNS_SANDBOX_URL"] = "http://127.0.0.1:9000/"
        environment["LFG_APNS_CA_FILE"] = "/ca.pem"
        let configuration = try APNsConfiguration(environment: environment)
        #expect(configuration.baseURL(for: .sandbox) == "http://127.0.0.1:9000")
        #expect(configuration.caFile == "/ca.pem")
    }

    @Test("Every missing item is named at once")
    func missing() {
        #expect(throws: APNsConfigurationError.self) { try APNsConfiguration(environment: [:]) }
        do {
            _ = try APNsConfiguration(environment: ["LFG_APNS_KEY_ID": "K", "LFG_APNS_SANDBOX_URL": "ftp://x"])
        } catch {
            #expect(error.problems.count == 4)
            #expect(error.description.contains("LFG_APNS_KEY_FILE is not set"))
            #expect(error.description.contains("LFG_APNS_TEAM_ID is not set"))
            #expect(error.description.contains("LFG_APNS_BUNDLE_ID is not set"))
            #expect(error.description.contains("LFG_APNS_SANDBOX_URL is 'ftp://x'"))
        }
    }

    @Test("An unreadable or empty key file is reported with the variable's name")
    func unreadable() throws {
        let configuration = try APNsConfiguration(environment: complete)
        struct Missing: Error {}
        #expect(throws: APNsConfigurationError.self) { try configuration.loadKey { _ in throw Missing() } }
        #expect(throws: APNsConfigurationError(problems: ["LFG_APNS_KEY_FILE names '/keys/AuthKey.p8', which is empty"])) {
            try configuration.loadKey { _ in [] }
        }
        #expect(try configuration.loadKey { _ in [1] } == [1])
    }
}
