import APNs
import ControlPlane
import ControlPlaneTesting
import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import HTTPTypes
import Sealing
import Testing

/// The phone against the real control plane, in process: the calls the app makes are the ones the
/// server's routes take, and the server ends up believing what the seed says it should.
@Suite struct ControlPlaneIntegrationTests {
    static let bearer = "integration-token-0123456789"

    /// A control plane with an in-memory store and scripted APNs, and one simulated phone talking to it.
    struct Rig {
        let router: APIRouter
        let client: HTTPHandlerControlPlaneClient
        let clock = VirtualClock(now: 1_764_400_000)
        let phone: SimulatedPhone

        init(privacy: Bool? = nil, sealKeys: (any SealKeyring)? = nil, privateByDefault: Bool = false) async throws {
            let service = ControlPlaneService(.init(
                store: InMemoryStore(), gateway: ScriptedPushGateway.answeringEverything(status: 200), decisionLog: InMemoryDecisionLog(),
                wallClock: WallClock(now: { 1_764_400_000 }), policy: CardPolicy(privacyByDefault: privateByDefault),
                alertSealing: HPKEAlertSealing()))
            try await service.start()
            router = APIRouter(service: service, authenticator: Authenticator(token: bearer, loginCode: nil))
            client = HTTPHandlerControlPlaneClient(router)
            let server = ServerProfile(name: "home", baseURL: "http://127.0.0.1:8766", bearerToken: bearer)
            var configuration = AppConfiguration(
                deviceID: "phone-1", environment: .sandbox, servers: [server], defaultServerName: "home")
            configuration.privacy = privacy
            phone = SimulatedPhone(configuration: configuration, clock: clock.wallClock, sealKeys: sealKeys)
        }

        /// Runs the phone for `seconds` of virtual time, carrying every call to the server and back.
        func run(for seconds: Double) async {
            let end = clock.now + seconds
            repeat {
                phone.runDue()
                while !phone.outbox.queued.isEmpty {
                    for sent in phone.outbox.takeQueued() {
                        let server = phone.configuration.servers[0]
                        do throws(ControlPlaneError) {
                            phone.answer(sent.id, .success(try await client.perform(sent.call, on: server)))
                        } catch {
                            phone.answer(sent.id, .failure(error))
                        }
                    }
                }
                guard let due = phone.nextDueTime, due <= end else { break }
                clock.advance(to: due)
            } while true
            clock.advance(to: end)
        }

        func call(_ method: String, _ path: String, _ body: String = "") async -> HTTPResponse {
            await router.respond(to: HTTPRequest(
                method: method, path: path, headers: ["Authorization": "Bearer \(bearer)", "Content-Type": "application/json"],
                body: Data(body.utf8)))
        }

        /// This phone's entry in `GET /api/push/live-activity/state`.
        func deviceState() async throws -> [String: Any] {
            let data = try #require(await call("GET", "/api/push/live-activity/state").bodyData)
            let state = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let devices = try #require(state["devices"] as? [[String: Any]])
            return try #require(devices.first { $0["deviceId"] as? String == "phone-1" })
        }
    }

    @Test("Privacy against the real server: the person's choice and the phone's own key are what the server holds")
    func privacyChoiceAndKeyReachTheServer() async throws {
        let key = try SealPrivateKey.random()
        let keyring = InMemorySealKeyring(keysToMake: [PhoneSealKey(registration: key.publicKey.base64, keyID: key.publicKey.keyID)])
        let rig = try await Rig(privacy: true, sealKeys: keyring)
        rig.phone.launch(inForeground: true)
        await rig.run(for: 1)
        func device() async throws -> DeviceChannelInfo {
            let reply = await rig.call("GET", "/api/devices/phone-1")
            return try JSONDecoder().decode(DeviceChannelInfo.self, from: try #require(reply.bodyData))
        }
        #expect(try await device().privacy == true)
        #expect(try await device().sealKeyId == key.publicKey.keyID)
        try #require(rig.phone.app).privacyChanged(false)
        await rig.run(for: 1)
        #expect(try await device().privacy == false)
        #expect(try await device().sealKeyId == key.publicKey.keyID, "the key stays registered")
    }

    @Test("A phone whose person never set privacy keeps the server's default (LFG_PRIVACY=1 stays private)")
    func unsetPrivacyKeepsTheServerDefault() async throws {
        let rig = try await Rig(privacy: nil, privateByDefault: true)
        rig.phone.launch(inForeground: true)
        await rig.run(for: 1)
        let reply = await rig.call("GET", "/api/devices/phone-1")
        #expect(try JSONDecoder().decode(DeviceChannelInfo.self, from: try #require(reply.bodyData)).privacy == true)
    }

    @Test("A against the real server: the app's card token is registered under its device id and the card adopted")
    func appCardAdoptedByServer() async throws {
        let rig = try await Rig()
        #expect(await rig.call("PUT", "/api/sessions/a", #"{"title": "Fix the build", "busy": true}"#).status == 200)
        rig.phone.launch(inForeground: true)
        await rig.run(for: 2)

        let card = try #require(rig.phone.host.fleetActivities.liveCards.first)
        #expect(card.content.rows.map(\.title) == ["Fix the build"])
        let device = try await rig.deviceState()
        #expect(device["env"] as? String == "sandbox")
        #expect(device["tokens"] as? [String: Int] == ["pushToStart": 1, "update": 1])
        #expect(device["card"] is [String: Any])
    }

    @Test("D against the real server: the app ends its card and the server forgets it")
    func endedCardForgottenByServer() async throws {
        let rig = try await Rig()
        _ = await rig.call("PUT", "/api/sessions/a", #"{"title": "Fix the build", "busy": true}"#)
        rig.phone.launch(inForeground: true)
        await rig.run(for: 2)
        #expect(try await rig.deviceState()["card"] is [String: Any])

        _ = await rig.call("PUT", "/api/sessions/a", #"{"title": "Fix the build", "busy": false}"#)
        rig.phone.app?.refresh()
        await rig.run(for: 2)

        #expect(rig.phone.host.fleetActivities.liveCards.isEmpty)
        #expect(try await rig.deviceState()["card"] is NSNull)
    }
}
