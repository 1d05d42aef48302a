import FleetApp
import FleetCore
import Foundation
import HTTPTypes
import Testing

@testable import APNsMock
@testable import Demo

@Suite struct ReceivedPushTests {
    static let token = String(repeating: "ab", count: 32)

    static func record(_ aps: [String: Any], delivered: Bool = true, pushType: String = "liveactivity") throws
        -> MockRecord
    {
        let body = try JSONSerialization.data(withJSONObject: ["aps": aps])
        return MockRecord(
            sequence: 1, connection: 1, receivedAt: 0, method: "POST", path: "/3/device/" + token, token: token,
            headers: ["apns-push-type": pushType], body: Array(body), providerToken: nil, status: delivered ? 200 : 410,
            reason: nil, apnsID: "id", isDelivered: delivered)
    }

    static var content: [String: Any] { [
        "working": 1, "needsInput": 0, "more": 0, "updatedAt": 1_764_400_000.75,
        "rows": [["sid": "a", "title": "Fix it", "state": "working", "since": 1_764_399_000.0]],
    ] }

    @Test("A start keeps its content, with the start's whole-second timestamp as the card's ordering baseline")
    func startTakesTheTimestampAsBaseline() throws {
        let (token, push) = try #require(ReceivedPush.reading(
            try Self.record(["event": "start", "timestamp": 1_764_400_000, "content-state": Self.content])))
        #expect(token.hex == Self.token)
        guard case .start(let content) = push else { Issue.record("not a start: \(push)"); return }
        #expect(content.working == 1 && content.rows.map(\.sid) == ["a"])
        // Without the floor, an update in the same second (timestamp 1764400000) would be dropped as older.
        #expect(content.updatedAt == 1_764_400_000)
    }

    @Test("An end with a dismissal date at its timestamp dismisses at once; a later one waits")
    func endDismissal() throws {
        let now = 1_764_400_000.0
        let atOnce = ReceivedPush.reading(
            try Self.record(["event": "end", "timestamp": now, "dismissal-date": now, "content-state": Self.content]))
        let later = ReceivedPush.reading(
            try Self.record(["event": "end", "timestamp": now, "dismissal-date": now + 60, "content-state": Self.content]))
        guard case .toCard(.end(_, let first, _)) = atOnce?.1, case .toCard(.end(_, let second, _)) = later?.1 else {
            Issue.record("not ends: \(String(describing: atOnce)) \(String(describing: later))")
            return
        }
        #expect(first == .immediate)
        #expect(second == .after(now + 60))
    }

    @Test("What the phone never gets is not read: rejected pushes and pushes of another type")
    func undeliveredPushesAreIgnored() throws {
        let update: [String: Any] = ["event": "update", "timestamp": 1_764_400_000, "content-state": Self.content]
        #expect(try ReceivedPush.reading(Self.record(update)) != nil)
        #expect(try ReceivedPush.reading(Self.record(update, delivered: false)) == nil)
        #expect(try ReceivedPush.reading(Self.record(update, pushType: "alert")) == nil)
        #expect(try ReceivedPush.reading(Self.record(["event": "bogus", "timestamp": 1])) == nil)
    }

    @Test("The loopback client encodes path segments and turns no answer into a 503 naming the server")
    func loopbackPathsAndFailures() async {
        #expect(LoopbackHTTPHandler.encodedPath("/api/sessions/a b/c") == "/api/sessions/a%20b/c")
        // Port 1 on loopback refuses at once.
        let handler = LoopbackHTTPHandler(baseURL: "http://127.0.0.1:1")
        let answer = await handler.respond(to: HTTPRequest(method: "GET", path: "/healthz"))
        #expect(answer.status == 503)
        #expect(String(decoding: answer.bodyData ?? Data(), as: UTF8.self).contains("127.0.0.1:1"))
    }
}
