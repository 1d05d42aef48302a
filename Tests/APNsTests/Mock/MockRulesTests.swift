import APNs
@testable import APNsMock
import Testing

@Suite struct MockRulesTests {
    static let claims = ProviderTokenClaims(keyID: "K", teamID: "T", issuedAt: 1_764_400_000)

    static func request(
        method: String = "POST", path: String = "/3/device/" + Fixture.tokenHex, drop: String? = nil,
        set: [String: String] = [:], body: [UInt8] = Array(#"{"aps":{}}"#.utf8)
    ) -> MockRequest {
        var headers = [
            "authorization": "bearer good", "apns-push-type": "liveactivity",
            "apns-topic": "dev.lfg.app.push-type.liveactivity", "apns-priority": "10",
        ]
        if let drop { headers[drop] = nil }
        headers.merge(set) { $1 }
        return MockRequest(method: method, path: path, headers: headers, body: body)
    }

    static let cases: [(MockRequest, Int, APNsReason)] = [
        (request(method: "GET"), 405, .methodNotAllowed),
        (request(path: "/4/broadcast"), 404, .badPath),
        (request(path: "/3/device/"), 400, .missingDeviceToken),
        (request(path: "/3/device/xyz"), 400, .badDeviceToken),
        (request(drop: "authorization"), 403, .missingProviderToken),
        (request(set: ["authorization": "bearer forged"]), 403, .invalidProviderToken),
        (request(set: ["authorization": "bearer old"]), 403, .expiredProviderToken),
        (request(set: ["apns-push-type": "voip"]), 400, .invalidPushType),
        (request(drop: "apns-topic"), 400, .missingTopic),
        (request(set: ["apns-topic": "com.other.push-type.liveactivity"]), 400, .badTopic),
        (request(set: ["apns-topic": "dev.lfg.app"]), 400, .deviceTokenNotForTopic),
        (request(set: ["apns-priority": "7"]), 400, .badPriority),
        (request(set: ["apns-push-type": "background", "apns-topic": "dev.lfg.app", "apns-priority": "10"]), 400, .badPriority),
        (request(set: ["apns-expiration": "soon"]), 400, .badExpirationDate),
        (request(set: ["apns-id": "nope"]), 400, .badMessageID),
        (request(set: ["apns-collapse-id": String(repeating: "c", count: 65)]), 400, .badCollapseID),
        (request(body: []), 400, .payloadEmpty),
        (request(body: Array(repeating: 0x20, count: 4097)), 413, .payloadTooLarge),
    ]

    func verify(_ jwt: String) -> ProviderTokenClaims? {
        switch jwt {
        case "good": Self.claims
        case "old": ProviderTokenClaims(keyID: "K", teamID: "T", issuedAt: 1_764_400_000 - 3_601)
        default: nil
        }
    }

    @Test("The stand-in refuses what APNs refuses, with APNs' status and reason", arguments: cases)
    func refusals(request: MockRequest, status: Int, reason: APNsReason) {
        let verdict = MockRules.rejection(of: request, now: 1_764_400_000, bundleID: Fixture.bundle, verify: verify)
        #expect(verdict?.status == status)
        #expect(verdict?.reason == reason)
    }

    @Test("A well-formed push passes every check, and a token an hour old to the second still does")
    func passes() {
        #expect(MockRules.rejection(of: Self.request(), now: 1_764_400_000, bundleID: Fixture.bundle, verify: verify) == nil)
        #expect(MockRules.rejection(of: Self.request(), now: 1_764_403_600, bundleID: Fixture.bundle, verify: verify) == nil)
        #expect(MockRules.rejection(of: Self.request(), now: 1_764_403_601, bundleID: Fixture.bundle, verify: verify)?.reason
            == .expiredProviderToken)
    }
}

@Suite struct MockStateTests {
    func state() -> (MockState, ManualWallClock) {
        let clock = ManualWallClock()
        return (MockState(verifier: { _ in MockRulesTests.claims }, bundleID: nil, clock: clock.clock, onRecord: nil), clock)
    }

    @Test("A failing token answers its status for the next N pushes, then what it did before")
    func failingCountsDown() {
        let (state, _) = state()
        state.program(Fixture.tokenHex, .deadButAccepted)
        state.program(Fixture.tokenHex, .failing(status: 503, reason: .serviceUnavailable, count: 2))
        let statuses = (0..<3).map { _ in state.handle(MockRulesTests.request(), connection: 1).0 }
        #expect(statuses.map(\.status) == [503, 503, 200])
        #expect(statuses.map(\.isDelivered) == [false, false, false])
    }

    @Test("Records keep every header but authorization, in order, with the verified claims")
    func records() {
        let (state, clock) = state()
        _ = state.handle(MockRulesTests.request(), connection: 1)
        clock.advance(by: 1)
        _ = state.handle(MockRulesTests.request(path: "/3/device/ABCD"), connection: 2)
        let records = state.records
        #expect(records.map(\.sequence) == [1, 2])
        #expect(records.map(\.connection) == [1, 2])
        #expect(records.map(\.receivedAt) == [1_764_400_000, 1_764_400_001])
        #expect(records[0].headers["authorization"] == nil)
        #expect(records[0].providerToken == MockRulesTests.claims)
        #expect(state.records(for: "abcd").count == 1)
        #expect(!records[0].jsonLine.contains(Fixture.tokenHex), "a printout never carries the whole token")
        #expect(records[0].jsonLine.contains(#""token":"a1b2c3d4""#))
    }

    @Test("The control surface programs tokens, faults and the default, and serves the records")
    func control() throws {
        let (state, _) = state()
        func post(_ path: String, _ body: String) -> Int {
            MockControl.handle(MockRequest(method: "POST", path: path, headers: [:], body: Array(body.utf8)), state: state).0
        }
        #expect(post("/mock/tokens/" + Fixture.tokenHex, #"{"behaviour":"unregistered"}"#) == 200)
        #expect(state.handle(MockRulesTests.request(), connection: 1).0.status == 410)
        #expect(post("/mock/tokens/" + Fixture.tokenHex, #"{"behaviour":"fail","status":500,"count":1}"#) == 200)
        #expect(state.handle(MockRulesTests.request(), connection: 1).0.reason == .internalServerError)
        #expect(post("/mock/default", #"{"behaviour":"bad-device-token"}"#) == 200)
        #expect(state.handle(MockRulesTests.request(path: "/3/device/00ff"), connection: 1).0.reason == .badDeviceToken)
        #expect(post("/mock/faults", #"{"fault":"drop","after":1}"#) == 200)
        #expect(state.handle(MockRulesTests.request(), connection: 1).1 == .dropConnection)
        #expect(post("/mock/tokens/zz", #"{"behaviour":"live"}"#) == 400)
        #expect(post("/mock/tokens/" + Fixture.tokenHex, #"{"behaviour":"sometimes"}"#) == 400)
        let (status, body) = MockControl.handle(MockRequest(method: "GET", path: "/mock/records", headers: [:], body: []), state: state)
        #expect(status == 200)
        guard case .array(let records) = try JSONValue(parsing: body) else { Issue.record("records are not an array"); return }
        #expect(records.count == 4)
        #expect(post("/mock/reset", "") == 200)
        #expect(state.records.isEmpty)
    }
}
