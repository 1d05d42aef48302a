import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import Testing

/// Every call the app makes, as contract section 5 names it.
@Suite struct ControlPlaneCallTests {
    static let token = PushToken(hex: "A1B2C3D4E5F60718")!

    func json(_ call: ControlPlaneCall) throws -> NSDictionary? {
        guard let body = try call.encodedBody() else { return nil }
        return try JSONSerialization.jsonObject(with: body) as? NSDictionary
    }

    @Test("Each call has the contract's method and path, and every Live Activity call carries the device id")
    func methodsPathsAndBodies() throws {
        let device: DeviceID = "phone 1/a"
        let cases: [(ControlPlaneCall, String, String, NSDictionary?)] = [
            (.putDevice(device, DeviceRegistration(env: .production, hiddenDirs: ["/a"])), "PUT", "/api/devices/phone%201%2Fa",
             ["env": "production", "platform": "ios", "hiddenDirs": ["/a"]]),
            (.registerToken(TokenRegistration(kind: .pushToStart, token: Self.token), env: .sandbox, deviceID: device),
             "POST", "/api/push/live-activity/start-token",
             ["token": "a1b2c3d4e5f60718", "env": "sandbox", "deviceId": "phone 1/a"]),
            (.registerToken(TokenRegistration(kind: .update, token: Self.token), env: .sandbox, deviceID: device),
             "POST", "/api/push/live-activity/update-token",
             ["token": "a1b2c3d4e5f60718", "env": "sandbox", "deviceId": "phone 1/a"]),
            (.reportEnded(env: .sandbox, deviceID: device), "POST", "/api/push/live-activity/ended",
             ["env": "sandbox", "deviceId": "phone 1/a"]),
            (.fetchSessions, "GET", "/api/sessions", nil),
            (.putDevice(device, Self.privateRegistration), "PUT", "/api/devices/phone%201%2Fa",
             ["env": "sandbox", "platform": "ios", "hiddenDirs": [], "privacy": true, "sealKey": "BASE64KEY"]),
        ]
        for (call, method, path, body) in cases {
            #expect(call.method == method)
            #expect(call.path == path)
            #expect(try json(call) == body)
        }
    }

    /// A registration with privacy mode on and the phone's sealing key (contract 8.3).
    static var privateRegistration: DeviceRegistration {
        var registration = DeviceRegistration(env: .sandbox)
        registration.privacy = true
        registration.sealKey = "BASE64KEY"
        return registration
    }

    @Test("A summary names a token only by its first 8 hex characters")
    func summaryAbbreviatesTokens() {
        let call = ControlPlaneCall.registerToken(
            TokenRegistration(kind: .update, token: Self.token), env: .sandbox, deviceID: "p")
        #expect(call.summary == "register update token a1b2c3d4… (sandbox)")
        #expect(!call.summary.contains(Self.token.hex))
    }

    @Test("Push tokens are 16 to 512 hex characters, stored lower-case")
    func tokenValidation() {
        #expect(PushToken(hex: "ABCDEF0123456789")?.hex == "abcdef0123456789")
        #expect(PushToken(hex: "abc") == nil)
        #expect(PushToken(hex: String(repeating: "g", count: 16)) == nil)
        #expect(PushToken(hex: String(repeating: "a", count: 514)) == nil)
        #expect(PushToken(bytes: [0x00, 0xff, 0x10, 0x0a, 0, 0, 0, 0]).hex == "00ff100a00000000")
    }

    @Test("The sessions listing decodes reports with their verdict; an unknown verdict does not fail it")
    func listingDecodes() throws {
        let text = #"""
            {"sessions": [
              {"sid": "a", "title": "A", "host": "mac", "busy": true, "displayState": "working"},
              {"sid": "b", "title": "B", "displayState": "somethingNew"}]}
            """#
        let listing = try JSONDecoder().decode(SessionsReply.self, from: Data(text.utf8))
        #expect(listing.sessions.map(\.sid) == ["a", "b"])
        #expect(listing.sessions.map(\.displayState) == [.working, nil])
        #expect(listing.sessions[0].report == SessionReport(title: "A", host: "mac", busy: true))
    }

    @Test("The device id is made once and kept")
    func deviceIDKept() {
        let storage = InMemoryKeyValueStorage()
        var made = 0
        let first = DeviceIdentity.deviceID(in: storage) { made += 1; return "id-\(made)" }
        let second = DeviceIdentity.deviceID(in: storage) { made += 1; return "id-\(made)" }
        #expect(first == "id-1")
        #expect(second == "id-1")
        #expect(made == 1)
    }
}
