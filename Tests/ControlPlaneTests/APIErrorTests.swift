import ControlPlane
import FleetCore
import Foundation
import Testing

@Suite struct APIErrorTests {
    @Test("GET /healthz answers without auth")
    func healthz() async throws {
        let harness = try await ServiceHarness()
        let reply = await harness.call("GET", "/healthz", token: nil)
        #expect(reply.status == 200)
        #expect(reply.json["ok"] as? Bool == true)
    }

    @Test("A missing or wrong token is a 401", arguments: [nil, "wrong"])
    func unauthorized(token: String?) async throws {
        let harness = try await ServiceHarness()
        let reply = await harness.call("GET", "/api/sessions", token: token)
        #expect(reply.status == 401)
        #expect((reply.json["error"] as? String)?.contains("token") == true)
    }

    @Test("An unknown route is a 404; PATCH or DELETE of an unknown sid is a 404")
    func notFound() async throws {
        let harness = try await ServiceHarness()
        #expect(await harness.call("GET", "/api/nope").status == 404)
        #expect(await harness.call("DELETE", "/api/sessions/ghost").status == 404)
        #expect(await harness.call("PATCH", "/api/sessions/ghost", #"{"busy":true}"#).status == 404)
    }

    @Test("A wrong method is a 405 that names the allowed ones")
    func methodNotAllowed() async throws {
        let harness = try await ServiceHarness()
        let reply = await harness.call("GET", "/api/push/live-activity/start-token")
        #expect(reply.status == 405)
        #expect(reply.response.header("Allow") == "POST")
    }

    @Test("A body over 64 KiB is a 413")
    func tooLarge() async throws {
        let harness = try await ServiceHarness()
        let title = String(repeating: "x", count: 64 * 1024)
        #expect(await harness.call("PUT", "/api/sessions/s1", #"{"title":"\#(title)"}"#).status == 413)
    }

    static let badRequests: [(method: String, path: String, body: String, field: String?)] = [
        ("PUT", "/api/sessions/s1", "{not json", nil),
        ("PUT", "/api/sessions/s1", "[1,2]", nil),
        ("PUT", "/api/sessions/s1", #"{"busy":"yes"}"#, "busy"),
        ("PUT", "/api/sessions/s1", #"{"prompt":{"kind":"dance","text":"?"}}"#, "prompt.kind"),
        ("PUT", "/api/hosts/mac", #"{"ttlSeconds":"soon"}"#, "ttlSeconds"),
        ("PUT", "/api/hosts/mac", #"{"ttlSeconds":0}"#, "ttlSeconds"),
        ("PUT", "/api/devices/phone", #"{"env":"staging"}"#, "env"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","pushToStartToken":"xyz"}"#, "pushToStartToken"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","platform":"android"}"#, "platform"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","appState":"minimised"}"#, "appState"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","appState":1}"#, "appState"),
        ("POST", "/api/push/live-activity/start-token", #"{"token":"abc","env":"sandbox"}"#, "token"),
        ("POST", "/api/push/live-activity/start-token", #"{"token":"\#(String(repeating: "g", count: 64))","env":"sandbox"}"#, "token"),
        ("POST", "/api/push/live-activity/update-token", #"{"token":"\#(String(repeating: "a", count: 513))","env":"sandbox"}"#, "token"),
        ("POST", "/api/push/live-activity/update-token", #"{"token":"\#(String(repeating: "a", count: 64))","env":"prod"}"#, "env"),
        ("POST", "/api/push/live-activity/update-token", #"{"env":"sandbox"}"#, "token"),
        ("POST", "/api/push/live-activity/ended", #"{"deviceId":5}"#, "deviceId"),
    ]

    @Test("Each bad input is a 400 naming the field, and changes nothing", arguments: badRequests.indices)
    func badRequest(index: Int) async throws {
        let harness = try await ServiceHarness()
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"keep","busy":true}"#)
        await harness.call("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox","deviceId":"phone"}"#)
        let before = await harness.observable()
        let bad = Self.badRequests[index]
        let reply = await harness.call(bad.method, bad.path, bad.body)
        #expect(reply.status == 400)
        #expect(reply.field == bad.field)
        #expect(!(reply.json["error"] as? String ?? "").isEmpty)
        #expect(await harness.observable() == before)
    }

    @Test("A bad PATCH is a 400 naming the field and leaves the report as it was")
    func badPatch() async throws {
        let harness = try await ServiceHarness()
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"keep","busy":true}"#)
        let before = await harness.observable()
        let reply = await harness.call("PATCH", "/api/sessions/s1", #"{"blocked":3}"#)
        #expect(reply.status == 400)
        #expect(reply.field == "blocked")
        #expect(await harness.observable() == before)
    }

    @Test("A store failure is a 500 and changes nothing in memory")
    func storeFailure() async throws {
        let harness = try await ServiceHarness()
        harness.store.failNextCommit()
        let reply = await harness.call("PUT", "/api/sessions/s1", #"{"busy":true}"#)
        #expect(reply.status == 500)
        #expect(await harness.call("GET", "/api/sessions").json["sessions"] as? [Any] != nil)
        #expect((await harness.call("GET", "/api/sessions").json["sessions"] as? [Any])?.isEmpty == true)
        harness.store.failNextCommit()
        #expect(await harness.call("POST", "/api/push/live-activity/update-token", #"{"token":"\#(hexA)","env":"sandbox"}"#).status == 500)
        #expect(await harness.service.tokenListings().isEmpty)
    }
}
