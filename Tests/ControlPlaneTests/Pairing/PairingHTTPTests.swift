import ControlPlane
import FleetApp
import FleetCore
import Foundation
import Testing

/// Issue 16's Must-shows, over a real socket: a pairing code works once and expires; a device's own
/// credential is revocable (401 on its next call) and never reaches the owner's endpoints.
@Suite struct PairingHTTPTests {
    @Test("a pairing code works once: the app gets its own credential, a second use is refused")
    func codeWorksOnce() async throws {
        try await PairingHarness.run { pairing in
            let link = try await pairing.newLink()
            let server = try await pairing.pair(link)
            #expect(server.baseURL == pairing.baseURL)
            #expect(server.bearerToken.hasPrefix("lfgd.") && server.bearerToken != ServiceHarness.token)
            #expect(try pairing.credentials.credential(forServer: server.name) == server.bearerToken)
            #expect(try await pairing.call("GET", "/api/sessions", bearer: server.bearerToken).status == 200)

            await #expect(throws: PairingFailure.codeRefused(
                "this pairing code is wrong, expired or was already used; run lfg pair for a new one")) {
                try await pairing.pair(link, deviceID: "phone-2")
            }
            let code = try PairingLink(parsing: link).code
            let again = try await pairing.call("POST", "/api/pair", #"{"code":"\#(code)","name":"x"}"#, bearer: nil)
            #expect(again.status == 401 && again.json["field"] as? String == "code")
            let listed = try await pairing.call("GET", APIPaths.pairedDevices).json["devices"] as? [[String: Any]]
            #expect(listed?.count == 1 && listed?.first?["name"] as? String == "Ana's iPhone")
            #expect(!(try await pairing.call("GET", APIPaths.pairedDevices).text.contains(server.bearerToken.suffix(64))))
        }
    }

    @Test("a code expires after PairingCodeBook.codeLifetime (injected clock); one second before, it works")
    func expiredCodeFails() async throws {
        try await PairingHarness.run { pairing in
            let early = try await pairing.newLink()
            let late = try await pairing.newLink()
            pairing.harness.time.advance(PairingCodeBook.codeLifetime - 1)
            _ = try await pairing.pair(early)
            pairing.harness.time.advance(2)
            await #expect(throws: PairingFailure.self) { try await pairing.pair(late, deviceID: "phone-2") }
            #expect(pairing.credentials.all.count == 1)
        }
    }

    @Test("a revoked device gets 401 on its next call, from the owner's revocation or its own sign-out")
    func revokedDeviceGets401() async throws {
        try await PairingHarness.run { pairing in
            let first = try await pairing.pair(try await pairing.newLink())
            let id = try #require(DeviceCredentialText.parse(first.bearerToken)?.id)
            #expect(try await pairing.call("GET", "/api/sessions", bearer: first.bearerToken).status == 200)
            let revoked = try await pairing.call("DELETE", APIPaths.pairedDevices + "/\(id)")
            #expect(revoked.status == 200 && revoked.json["revokedAt"] != nil)
            let refused = try await pairing.call("GET", "/api/sessions", bearer: first.bearerToken)
            #expect(refused.status == 401 && refused.text.contains("revoked"))

            let second = try await pairing.pair(try await pairing.newLink(), deviceID: "phone-2")
            try await pairing.app.signOut(of: second, store: pairing.credentials)
            #expect(try pairing.credentials.credential(forServer: second.name) == nil)
            #expect(try await pairing.call("GET", "/api/sessions", bearer: second.bearerToken).status == 401)
            #expect(try await pairing.call("DELETE", APIPaths.pairedDevices + "/ffffffffffffffff").status == 404)
        }
    }

    @Test("a device credential cannot call any owner-only endpoint (403, nothing changed); it can call the app's")
    func deviceCannotCallOwnerEndpoints() async throws {
        try await PairingHarness.run { pairing in
            let device = try await pairing.pair(try await pairing.newLink(), deviceID: "phone-1")
            let bearer = device.bearerToken
            let session = #"{"title":"t","host":"h"}"#
            let ownerOnly: [(String, String, String)] = [
                ("POST", APIPaths.pairingCodes, ""),
                ("GET", APIPaths.currentPairingCode, ""),
                ("GET", APIPaths.pairedDevices, ""),
                ("DELETE", APIPaths.pairedDevices + "/0123456789abcdef", ""),
                ("POST", APIPaths.loginLinks, ""),
                ("PUT", "/api/sessions/s1", session),
                ("PATCH", "/api/sessions/s1", #"{"title":"u"}"#),
                ("DELETE", "/api/sessions/s1", ""),
                ("PUT", "/api/hosts/mac", #"{"ttlSeconds":30}"#),
                ("DELETE", "/api/devices/phone-1", ""),
                ("GET", "/api/push/live-activity/state", ""),
                ("GET", "/api/push/live-activity/tokens", ""),
                ("GET", "/api/push/live-activity/history", ""),
                ("GET", "/api/log", ""),
                ("GET", "/api/questions/q1/wait", ""),
                ("PUT", "/api/devices/someone-else", #"{"env":"sandbox","platform":"ios"}"#),
                ("GET", "/api/devices/someone-else", ""),
                ("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox","deviceId":"someone-else"}"#),
            ]
            #expect(try await pairing.call("PUT", "/api/sessions/s1", session).status == 200)
            let before = await pairing.harness.observable()
            for (method, path, body) in ownerOnly {
                let reply = try await pairing.call(method, path, body, bearer: bearer)
                #expect(reply.status == 403, "\(method) \(path) answered \(reply.status): \(reply.text)")
            }
            #expect(await pairing.harness.observable() == before)
            #expect(pairing.harness.service.pairing.credentials.count == 1)

            let own = #"{"env":"sandbox","platform":"ios"}"#
            #expect(try await pairing.call("PUT", "/api/devices/phone-1", own, bearer: bearer).status == 200)
            #expect(try await pairing.call("GET", "/api/devices/phone-1", bearer: bearer).status == 200)
            #expect(try await pairing.call("GET", "/api/sessions", bearer: bearer).status == 200)
            #expect(try await pairing.call("GET", "/api/questions", bearer: bearer).status == 200)
        }
    }
}
