@testable import APNs
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

    @Test("The channel management and broadcast hosts default per contract 8.1; broadcast follows the push URL")
    func broadcastHosts() throws {
        let standard = try APNsConfiguration(environment: complete)
        #expect(standard.channelsBaseURL(for: .sandbox) == "https://api-manage-broadcast.sandbox.push.apple.com:2195")
        #expect(standard.channelsBaseURL(for: .production) == "https://api-manage-broadcast.push.apple.com:2196")
        #expect(standard.broadcastBaseURL(for: .sandbox) == "https://api.sandbox.push.apple.com")
        #expect(standard.broadcastBaseURL(for: .production) == "https://api.push.apple.com")
        var environment = complete
        environment["LFG_APNS_SANDBOX_URL"] = "http://127.0.0.1:9000"
        environment["LFG_APNS_CHANNELS_SANDBOX_URL"] = "http://127.0.0.1:9001/"
        environment["LFG_APNS_CHANNELS_PRODUCTION_URL"] = "http://127.0.0.1:9002"
        environment["LFG_APNS_BROADCAST_PRODUCTION_URL"] = "https://api-broadcast.push.apple.com/"
        let custom = try APNsConfiguration(environment: environment)
        #expect(custom.broadcastBaseURL(for: .sandbox) == "http://127.0.0.1:9000")
        #expect(custom.broadcastBaseURL(for: .production) == "https://api-broadcast.push.apple.com")
        #expect(custom.channelsBaseURL(for: .sandbox) == "http://127.0.0.1:9001")
        #expect(custom.channelsBaseURL(for: .production) == "http://127.0.0.1:9002")
        #expect(custom.baseURL(for: .channel(Fixture.channel), environment: .sandbox) == "http://127.0.0.1:9000")
        #expect(custom.baseURL(for: .device(Fixture.token), environment: .production) == "https://api.push.apple.com")
        environment["LFG_APNS_BROADCAST_SANDBOX_URL"] = "api-broadcast.sandbox.push.apple.com"
        #expect(throws: APNsConfigurationError(problems: [
            "LFG_APNS_BROADCAST_SANDBOX_URL is 'api-broadcast.sandbox.push.apple.com'; give an https:// (TLS) or http:// (cleartext HTTP/2) URL",
        ])) { try APNsConfiguration(environment: environment) }
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
