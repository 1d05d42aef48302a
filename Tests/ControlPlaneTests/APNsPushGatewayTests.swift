import APNs
import ControlPlane
import FleetCore
import Foundation
import Synchronization
import Testing

/// A push sender that records requests and answers from a table (200 by default).
final class RecordingPushSender: PushSender {
    let requests = Mutex<[PushRequest]>([])
    let statuses: [String: (Int, String)]
    init(_ statuses: [String: (Int, String)] = [:]) { self.statuses = statuses }

    func send(_ request: PushRequest) async -> PushResponse {
        requests.withLock { $0.append(request) }
        guard let (status, reason) = statuses[request.token?.hex ?? ""] else {
            return PushResponse(status: 200, apnsID: "id-1", body: [], latencyMilliseconds: 3)
        }
        return PushResponse(status: status, apnsID: nil, body: Array(#"{"reason":"\#(reason)"}"#.utf8), latencyMilliseconds: 4)
    }
}

@Suite struct APNsPushGatewayTests {
    static func batch(_ action: PushAction, targets: [String]) -> PushBatch {
        PushBatch(
            id: 1, deviceId: "phone", action: action, contentState: ContentState(working: 1, updatedAt: 50),
            dismissalDate: action == .end ? 50 : nil,
            targets: targets.map { PushTarget(kind: action == .start ? .pushToStart : .update, env: .sandbox, hex: $0) },
            decidedAt: 50)
    }

    @Test("A start becomes one liveactivity push per token with attributes, alert and relevance score")
    func startPayload() async throws {
        let sender = RecordingPushSender([hexB: (410, "Unregistered")])
        let gateway = APNsPushGateway(sender: sender, bundleID: BundleID("com.example.lfg"))
        let results = await gateway.deliver(Self.batch(.start, targets: [hexA, hexB]))
        #expect(results.map(\.status) == [200, 410])
        #expect(results.map(\.isTokenDead) == [false, true])
        #expect(results[0].apnsId == "id-1")
        #expect(results[1].reason == "Unregistered")
        let request = try #require(sender.requests.withLock { $0 }.first { $0.token?.hex == hexA })
        #expect(request.topic == "com.example.lfg.push-type.liveactivity")
        let aps = try #require((try JSONSerialization.jsonObject(with: Data(request.payload.bytes)) as? [String: Any])?["aps"] as? [String: Any])
        #expect(aps["event"] as? String == "start")
        #expect(aps["attributes-type"] as? String == "LFGFleetAttributes")
        #expect(aps["relevance-score"] as? Int == 90)
        #expect(aps["alert"] != nil)
    }

    @Test("An end carries the dismissal date and no relevance score")
    func endPayload() async throws {
        let sender = RecordingPushSender()
        _ = await APNsPushGateway(sender: sender, bundleID: BundleID("b")).deliver(Self.batch(.end, targets: [hexA]))
        let request = try #require(sender.requests.withLock { $0 }.first)
        let aps = try #require((try JSONSerialization.jsonObject(with: Data(request.payload.bytes)) as? [String: Any])?["aps"] as? [String: Any])
        #expect(aps["event"] as? String == "end")
        #expect(aps["dismissal-date"] as? Int == 50)
        #expect(aps["relevance-score"] == nil)
    }
}
