import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// Ids in paths follow one rule (`IdentifierRule`) with a 400 that says it; nothing is stored.
@Suite struct PathIdentifierTests {
    /// Sends `rawPath` as it would arrive over the wire (still percent-encoded).
    static func put(_ harness: ServiceHarness, rawPath: String, body: String) async -> HTTPResponse {
        await harness.router.respond(to: HTTPRequest(
            method: "PUT", path: rawPath.removingPercentEncoding ?? rawPath,
            headers: ["Authorization": "Bearer \(ServiceHarness.token)", "Content-Type": "application/json"],
            body: Data(body.utf8), rawPath: rawPath))
    }

    static let refused: [(rawPath: String, field: String?, says: String)] = [
        ("/api/sessions/x%00y", "sid", "U+0000"),
        ("/api/sessions/%ff", nil, "percent-encoded UTF-8"),
        ("/api/sessions/%fe", nil, "percent-encoded UTF-8"),
        ("/api/sessions/%zz", nil, "percent-encoded UTF-8"),
        ("/api/sessions/.", "sid", "'.'"),
        ("/api/sessions/..", "sid", "'..'"),
        ("/api/sessions/%2E%2E", "sid", "'..'"),
        ("/api/sessions/a%2Fb", "sid", "U+002F"),
        ("/api/sessions/\(String(repeating: "s", count: 201))", "sid", "201 bytes"),
        ("/api/hosts/x%0Ay", "host", "U+000A"),
        ("/api/devices/\(String(repeating: "d", count: 201))", "deviceId", "201 bytes"),
    ]

    @Test("A bad id in a path is a 400 that states the rule, and changes nothing", arguments: refused.indices)
    func refusedIds(index: Int) async throws {
        let harness = try await ServiceHarness()
        await harness.call("PUT", "/api/sessions/keep", #"{"title":"keep"}"#)
        let before = await harness.observable()
        let bad = Self.refused[index]
        let body = bad.rawPath.hasPrefix("/api/hosts") ? #"{"ttlSeconds":60}"# : #"{"title":"x","env":"sandbox"}"#
        let response = await Self.put(harness, rawPath: bad.rawPath, body: body)
        let error = try JSONDecoder().decode(ErrorBody.self, from: response.bodyData ?? Data())
        #expect(response.status == 400)
        #expect(error.field == bad.field)
        #expect(error.error.contains(bad.says), "\(error.error)")
        #expect(await harness.observable() == before)
    }

    @Test("An id of 200 bytes, with spaces or non-ASCII letters, is accepted as sent")
    func acceptedIds() async throws {
        let harness = try await ServiceHarness()
        let long = String(repeating: "s", count: 200)
        #expect(await Self.put(harness, rawPath: "/api/sessions/\(long)", body: #"{"title":"a"}"#).status == 200)
        #expect(await Self.put(harness, rawPath: "/api/sessions/a%20b%C3%A9", body: #"{"title":"b"}"#).status == 200)
        let sids = await harness.service.sessions().map(\.sid.rawValue).sorted()
        #expect(sids == ["a bé", long])
    }

    @Test("A body's deviceId follows the same rule as a path id")
    func bodyDeviceId() async throws {
        let harness = try await ServiceHarness()
        let reply = await harness.call(
            "POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox","deviceId":".."}"#)
        #expect(reply.status == 400)
        #expect(reply.field == "deviceId")
    }
}
