import ControlPlane
import FleetCore
import Foundation
import Testing

/// Contract section 5: a token is whole bytes. An odd-length token accepted here could never be sent
/// (the sender refuses it), was never pruned, and was re-sent every tick; so every endpoint refuses it.
@Suite struct TokenRuleAPITests {
    static let odd = String(repeating: "a", count: 65)

    static let endpoints: [(method: String, path: String, body: String, field: String)] = [
        ("POST", "/api/push/live-activity/start-token", #"{"token":"\#(odd)","env":"sandbox"}"#, "token"),
        ("POST", "/api/push/live-activity/update-token", #"{"token":"\#(odd)","env":"sandbox"}"#, "token"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","apnsToken":"\#(odd)"}"#, "apnsToken"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","pushToStartToken":"\#(odd)"}"#, "pushToStartToken"),
        ("PUT", "/api/devices/phone", #"{"env":"sandbox","widgetPushToken":"\#(odd)"}"#, "widgetPushToken"),
    ]

    @Test("An odd-length token is a 400 naming the field at every endpoint that takes one", arguments: endpoints.indices)
    func oddLengthTokenIsRefused(index: Int) async throws {
        let harness = try await ServiceHarness()
        let before = await harness.observable()
        let endpoint = Self.endpoints[index]
        let reply = await harness.call(endpoint.method, endpoint.path, endpoint.body)
        #expect(reply.status == 400)
        #expect(reply.field == endpoint.field)
        #expect((reply.json["error"] as? String)?.contains("whole bytes") == true)
        #expect(await harness.observable() == before)
    }
}
