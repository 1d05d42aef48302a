@testable import APNs
import FleetCore
import Testing

@Suite struct PushRequestTests {
    @Test("Every header is written with its exact name and value")
    func everyHeader() throws {
        let request = try PushRequest(
            token: Fixture.token, environment: .sandbox, pushType: .alert, topic: "dev.lfg.app",
            priority: .powerConsidered, expiration: .at(1_764_403_600), collapseID: CollapseID("job-42"),
            apnsID: APNsID("123E4567-E89B-12D3-A456-426614174000"),
            payload: PushPayload(bytes: Array(#"{"aps":{}}"#.utf8)))
        #expect(request.path == "/3/device/" + Fixture.tokenHex)
        #expect(request.headers == [
            HeaderField("apns-push-type", "alert"),
            HeaderField("apns-topic", "dev.lfg.app"),
            HeaderField("apns-priority", "5"),
            HeaderField("apns-expiration", "1764403600"),
            HeaderField("apns-collapse-id", "job-42"),
            HeaderField("apns-id", "123e4567-e89b-12d3-a456-426614174000"),
        ])
    }

    @Test("Optional headers are left out when unset, and expiration 0 means one attempt")
    func optionalHeaders() throws {
        var request = try PushRequest.widgetReload(token: Fixture.token, environment: .production, bundleID: Fixture.bundle)
        #expect(request.headers.map(\.name) == ["apns-push-type", "apns-topic", "apns-priority"])
        request.expiration = .immediately
        #expect(request.headers.last == HeaderField("apns-expiration", "0"))
    }

    @Test("Each push type gets its topic suffix", arguments: [
        (PushType.alert, "dev.lfg.app"),
        (.background, "dev.lfg.app"),
        (.liveActivity, "dev.lfg.app.push-type.liveactivity"),
        (.widgets, "dev.lfg.app.push-type.widgets"),
    ])
    func topics(type: PushType, topic: String) {
        #expect(type.topic(bundleID: Fixture.bundle) == topic)
    }

    @Test("A background push at priority 10 is refused")
    func backgroundPriority() {
        #expect(throws: PushRequestError.backgroundNeedsPriority5) {
            try PushRequest(
                token: Fixture.token, environment: .sandbox, pushType: .background, topic: "dev.lfg.app",
                priority: .immediate, payload: PushPayload(encoding: BackgroundPayload()))
        }
    }

    @Test("A payload over 4096 bytes is refused before anything is sent, and 4096 itself is fine")
    func sizeLimit() throws {
        let filler = { (count: Int) in Array(#"{"a":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: count) + Array(#""}"#.utf8) }
        let request = { (payload: PushPayload) in
            try PushRequest(
                token: Fixture.token, environment: .sandbox, pushType: .alert, topic: "t", priority: .immediate, payload: payload)
        }
        #expect(try request(PushPayload(bytes: filler(4096 - 8))).payload.bytes.count == 4096)
        #expect(throws: PushRequestError.payloadTooLarge(bytes: 4097, limit: 4096)) {
            try request(PushPayload(bytes: filler(4096 - 7)))
        }
        var state = Fixture.state
        state.rows = (0..<3).map { Row(sid: SessionID("s\($0)"), title: String(repeating: "t", count: 1500), state: .working, since: 0) }
        let error = #expect(throws: PushRequestError.self) {
            try PushRequest.liveActivity(
                .update(state: state, timestamp: 1), token: Fixture.token, environment: .sandbox, bundleID: Fixture.bundle)
        }
        guard case .payloadTooLarge(let bytes, let limit) = error else { Issue.record("wrong error \(String(describing: error))"); return }
        #expect(bytes > 4096 && limit == 4096)
        #expect(error?.description.contains("over APNs' limit of 4096") == true)
    }

    @Test("An empty payload, a long collapse id and a malformed apns-id are refused")
    func otherRefusals() {
        #expect(throws: PushRequestError.payloadEmpty) { try PushPayload(bytes: []) }
        #expect(throws: PushRequestError.badCollapseID(bytes: 65)) { try CollapseID(String(repeating: "c", count: 65)) }
        #expect(throws: PushRequestError.badAPNsID("not-a-uuid")) { try APNsID("not-a-uuid") }
    }
}
