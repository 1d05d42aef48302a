import LFGCommandTesting
import APNs
import APNsMock
import ES256OpenSSL
import Foundation
import LFGCommand
import Testing

@Suite("APNs commands")
struct APNsCommandTests {
    static let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

    /// A stand-in verifying a throwaway key written to a temp dir, and the environment that points lfg at it.
    struct Setup {
        let server: APNsMockServer
        let directory: URL
        let environment: [String: String]

        init() throws {
            let key = try OpenSSLSigningKey.generateP256()
            let verifier = try key.verifier()
            server = try APNsMockServer(verifier: { verifier.verify(providerToken: $0) }, bundleID: BundleID("dev.lfg.app"))
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-push-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let keyFile = directory.appendingPathComponent("key.p8")
            try Data(try key.privateKeyPEM().utf8).write(to: keyFile)
            environment = [
                "LFG_APNS_KEY_FILE": keyFile.path, "LFG_APNS_KEY_ID": "KEY1234567", "LFG_APNS_TEAM_ID": "TEAM123456",
                "LFG_APNS_BUNDLE_ID": "dev.lfg.app", "LFG_APNS_SANDBOX_URL": server.baseURL,
            ]
        }

        func file(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }

        func stop() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("lfg push sends a Live Activity update with the state from a file and prints status and apns-id")
    func pushUpdate() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let state = try setup.file("state.json", #"{"working":1,"rows":[{"sid":"a","title":"Build","state":"working","since":5}]}"#)
        let run = await CapturedRun.run(
            ["push", "--env", "sandbox", "--token", Self.token, "--event", "update", "--state", state], environment: setup.environment)
        #expect(run.status == 0)
        let record = try #require(setup.server.state.records.first)
        let printed = try Self.object(run.output)
        #expect(printed["status"] as? Int == 200)
        #expect(printed["outcome"] as? String == "accepted")
        #expect(printed["apnsId"] as? String == record.apnsID)
        #expect(record.headers["apns-push-type"] == "liveactivity")
        let aps = try #require((record.bodyJSON as? [String: Any])?["aps"] as? [String: Any])
        #expect(aps["event"] as? String == "update")
        #expect((aps["content-state"] as? [String: Any])?["working"] as? Int == 1)
    }

    @Test("lfg push exits 1 and names the reason when the token is dead")
    func pushDead() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.server.state.program(Self.token, .unregistered)
        let run = await CapturedRun.run(
            ["push", "--env", "sandbox", "--token", Self.token, "--title", "Hi", "--body", "there"], environment: setup.environment)
        #expect(run.status == 1)
        #expect(try Self.object(run.output)["reason"] as? String == "Unregistered")
        #expect(run.errors.contains("tokenDead"))
        #expect(setup.server.state.records.first?.headers["apns-push-type"] == "alert")
    }

    @Test("lfg push without APNs configuration fails naming every missing variable")
    func pushUnconfigured() async {
        let run = await CapturedRun.run(["push", "--env", "sandbox", "--token", Self.token, "--type", "widgets"])
        #expect(run.status == 1)
        #expect(run.errors.contains("LFG_APNS_KEY_FILE is not set"))
        #expect(run.errors.contains("LFG_APNS_BUNDLE_ID is not set"))
    }

    @Test("lfg push refuses bad arguments with exit status 2", arguments: [
        ["push", "--token", token, "--type", "widgets"],
        ["push", "--env", "staging", "--token", token, "--type", "widgets"],
        ["push", "--env", "sandbox", "--token", "xyz", "--type", "widgets"],
        ["push", "--env", "sandbox", "--token", token],
        ["push", "--env", "sandbox", "--token", token, "--event", "update"],
        ["push", "--env", "sandbox", "--token", token, "--type", "alert"],
        ["push", "--env", "sandbox", "--token", token, "--type", "widgets", "--priority", "7"],
    ])
    func pushUsage(arguments: [String]) async {
        let run = await CapturedRun.run(arguments)
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("lfg push: "))
    }

    @Test("lfg bench apns prints exactly count, seconds, pushesPerSecond, errors and connections")
    func bench() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        var environment = setup.environment
        environment["LFG_APNS_SANDBOX_URL"] = nil
        let run = await CapturedRun.run(
            ["bench", "apns", "--url", setup.server.baseURL, "--count", "300", "--concurrency", "20"], environment: environment)
        #expect(run.status == 0)
        let line = try Self.object(run.output)
        #expect(Set(line.keys) == ["count", "seconds", "pushesPerSecond", "errors", "connections"])
        #expect(line["count"] as? Int == 300)
        #expect(line["errors"] as? Int == 0)
        #expect(line["connections"] as? Int == 1)
        #expect(run.output.hasPrefix(#"{"count":300,"seconds":"#), "keys in the contract's order")
        #expect(setup.server.state.records.count == 300)
        #expect(setup.server.state.records.allSatisfy { $0.providerToken?.keyID == "KEY1234567" && $0.body.count > 250 })
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("lfg bench apns needs a URL with a scheme", arguments: [["bench", "apns"], ["bench", "apns", "--url", "127.0.0.1:1"]])
    func benchUsage(arguments: [String]) async {
        #expect(await CapturedRun.run(arguments).status == 2)
    }

    @Test("lfg apns-mock refuses a bad port and an unknown flag, and documents its control surface")
    func mockUsage() async {
        #expect(await CapturedRun.run(["apns-mock", "--port", "70000"]).status == 2)
        #expect(await CapturedRun.run(["apns-mock", "--verbose"]).status == 2)
        let help = await CapturedRun.run(["apns-mock", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("POST /mock/tokens/<hex>"))
    }
}
