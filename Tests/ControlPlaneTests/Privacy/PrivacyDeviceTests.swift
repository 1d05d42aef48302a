import APNs
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPTypes
import Sealing
import StoreSQLite
import Testing

/// A service with a scripted APNs, privacy default and sealing chosen by the test, behind the router.
struct PrivacyHarness {
    let gateway = ScriptedPushGateway.answeringEverything(status: 200)
    let store: any Store
    let time = ManualTime()
    let service: ControlPlaneService
    let router: APIRouter

    init(
        privacyByDefault: Bool = false, alertSealing: any AlertSealing = HPKEAlertSealing(),
        store: any Store = InMemoryStore()
    ) async throws {
        self.store = store
        service = ControlPlaneService(.init(
            store: store, gateway: gateway, decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock,
            policy: CardPolicy(privacyByDefault: privacyByDefault), alertSealing: alertSealing))
        try await service.start()
        router = APIRouter(service: service, authenticator: Authenticator(token: ServiceHarness.token, loginCode: nil))
    }

    @discardableResult
    func call(_ method: String, _ path: String, _ body: String? = nil) async -> ServiceHarness.Reply {
        let request = HTTPRequest(
            method: method, path: path, query: [:],
            headers: ["Authorization": "Bearer \(ServiceHarness.token)", "Content-Type": "application/json"],
            body: Data((body ?? "").utf8))
        let response = await router.respond(to: request)
        return ServiceHarness.Reply(status: response.status, response: response)
    }

    /// A sandbox phone with push-to-start token `a` and the given extra JSON members (`"privacy":true`).
    @discardableResult
    func phone(_ extra: String = "") async -> ServiceHarness.Reply {
        await call("PUT", "/api/devices/phone", #"{"env":"sandbox","pushToStartToken":"\#(hexA)"\#(extra)}"#)
    }

    /// A started card whose update token (`b`) the app handed over, pushed once since: steady from here.
    func steadyCard(_ extra: String = "", title: String) async throws {
        await phone(extra)
        try await session("s1", title: title)
        await service.tick()
        let reply = await call(
            "POST", "/api/push/live-activity/update-token", #"{"token":"\#(hexB)","env":"sandbox","deviceId":"phone"}"#)
        #expect(reply.status == 200)
        time.advance(PushBudget().routineInterval)
        await service.tick()
    }

    func session(_ sid: String, title: String, busy: Bool = true) async throws {
        _ = try await service.putSession(SessionID(sid), SessionReport(title: title, busy: busy))
    }
}

/// A fixed phone key, so a test can open what was sealed to it.
let phoneSealKey = try! SealPrivateKey(derivedFrom: Array("privacy tests phone".utf8))

@Suite(.timeLimit(.minutes(1))) struct PrivacyDeviceTests {
    @Test("A privacy device's card is pushed with empty titles, and only counts, phases, ids and times")
    func wordlessPushes() async throws {
        let harness = try await PrivacyHarness()
        #expect(await harness.phone(#","privacy":true"#).status == 200)
        try await harness.session("s1", title: "Fix the login bug")
        await harness.service.tick()
        let start = try #require(harness.gateway.delivered.last)
        #expect(start.action == .start)
        #expect(start.contentState.rows.map(\.title) == [""])
        #expect(start.contentState.rows.map(\.sid) == ["s1"])
        #expect(start.contentState.working == 1)
    }

    @Test("A privacy device is not pushed again for a title change alone; a count change is pushed")
    func titleChangeIsNoChange() async throws {
        let harness = try await PrivacyHarness()
        try await harness.steadyCard(#","privacy":true"#, title: "First title")
        let steady = harness.gateway.delivered.count
        harness.time.advance(PushBudget().routineInterval)
        try await harness.session("s1", title: "Renamed")
        await harness.service.tick()
        #expect(harness.gateway.delivered.count == steady)
        try await harness.session("s2", title: "Second")
        await harness.service.tick()
        #expect(harness.gateway.delivered.count == steady + 1)
        #expect(harness.gateway.delivered.last?.contentState.isWordless == true)
    }

    @Test("Without privacy the titles are pushed as before, and a rename is a change")
    func privacyOff() async throws {
        let harness = try await PrivacyHarness()
        try await harness.steadyCard(title: "First title")
        #expect(harness.gateway.delivered.last?.contentState.rows.map(\.title) == ["First title"])
        let steady = harness.gateway.delivered.count
        harness.time.advance(PushBudget().routineInterval)
        try await harness.session("s1", title: "Renamed")
        await harness.service.tick()
        #expect(harness.gateway.delivered.count == steady + 1)
    }

    @Test("LFG_PRIVACY=1 makes a device that did not say private; one that says privacy false is not")
    func serverDefault() async throws {
        let harness = try await PrivacyHarness(privacyByDefault: true)
        await harness.phone()
        try await harness.session("s1", title: "Secret title")
        await harness.service.tick()
        #expect(harness.gateway.delivered.last?.contentState.rows.map(\.title) == [""])
        #expect(await harness.call("GET", "/api/devices/phone").json["privacy"] as? Bool == true)
        await harness.phone(#","privacy":false"#)
        #expect(await harness.call("GET", "/api/devices/phone").json["privacy"] as? Bool == false)
    }

    @Test("LFG_PRIVACY reads 1 and 0, and refuses anything else by name")
    func configuration() throws {
        #expect(try ServerConfig.load(environment: ["LFG_HOME": "/x", "LFG_PRIVACY": "1"], readFile: { _ in nil })
            .cardPolicy.privacyByDefault)
        #expect(try !ServerConfig.load(environment: ["LFG_HOME": "/x"], readFile: { _ in nil }).cardPolicy.privacyByDefault)
        #expect(throws: ConfigError.self) {
            try ServerConfig.load(environment: ["LFG_HOME": "/x", "LFG_PRIVACY": "yes"], readFile: { _ in nil })
        }
    }

    @Test("A sealKey is checked, stored and listed by its id; a new key replaces the old one")
    func sealKeyRotation() async throws {
        let harness = try await PrivacyHarness()
        let first = phoneSealKey.publicKey
        #expect(await harness.phone(#","privacy":true,"sealKey":"\#(first.base64)""#).status == 200)
        var listing = await harness.call("GET", "/api/devices/phone").json
        #expect(listing["sealKeyId"] as? String == first.keyID)
        #expect(listing["privacy"] as? Bool == true)
        let second = try SealPrivateKey(derivedFrom: Array("the phone's next key".utf8)).publicKey
        #expect(await harness.phone(#","privacy":true,"sealKey":"\#(second.base64)""#).status == 200)
        listing = await harness.call("GET", "/api/devices/phone").json
        #expect(listing["sealKeyId"] as? String == second.keyID)
        let state = await harness.call("GET", "/api/push/live-activity/state").json
        let device = try #require((state["devices"] as? [[String: Any]])?.first)
        #expect(device["sealKeyId"] as? String == second.keyID)
        #expect(device["privacy"] as? Bool == true)
    }

    @Test("A bad sealKey is a 400 naming the field, and nothing changes", arguments: [
        "not base64 !!", Data(repeating: 4, count: 65).base64EncodedString(), Data([4, 1, 2]).base64EncodedString(),
    ])
    func badSealKey(key: String) async throws {
        let harness = try await PrivacyHarness()
        await harness.phone()
        let reply = await harness.phone(#","sealKey":"\#(key)""#)
        #expect(reply.status == 400)
        #expect(reply.field == "sealKey")
        #expect(await harness.call("GET", "/api/devices/phone").json["sealKeyId"] is NSNull)
    }

    @Test("A server without sealing refuses a sealKey rather than storing one it cannot use")
    func noSealing() async throws {
        let harness = try await PrivacyHarness(alertSealing: NoAlertSealing())
        let reply = await harness.phone(#","sealKey":"\#(phoneSealKey.publicKey.base64)""#)
        #expect(reply.status == 400)
        #expect(reply.field == "sealKey")
    }

    @Test("Privacy and the sealKey survive a restart on SQLite; a profile stored before them reads as not private")
    func sqliteKeepsThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lfg.db").path
        do {
            let harness = try await PrivacyHarness(store: try SQLiteStore(path: path))
            #expect(await harness.phone(#","privacy":true,"sealKey":"\#(phoneSealKey.publicKey.base64)""#).status == 200)
        }
        let reopened = try await PrivacyHarness(store: try SQLiteStore(path: path))
        let listing = await reopened.call("GET", "/api/devices/phone").json
        #expect(listing["privacy"] as? Bool == true)
        #expect(listing["sealKeyId"] as? String == phoneSealKey.publicKey.keyID)

        let old = try JSONDecoder().decode(DeviceProfile.self, from: Data(#"{"env":"sandbox","platform":"ios"}"#.utf8))
        #expect(old.privacy == nil && old.sealKey == nil && !old.isPrivate(byDefault: false))
    }
}
