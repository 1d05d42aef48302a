import APNs
@testable import APNsMock
import Testing

@Suite struct MockChannelRulesTests {
    static func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "") -> MockRequest {
        MockRequest(method: method, path: path, headers: headers, body: Array(body.utf8))
    }

    static let create = #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#

    func answer(_ request: MockRequest, channels: inout MockChannels) -> MockAnswer? {
        channels.handle(request, bundleID: Fixture.bundle, now: 1_764_400_000)
    }

    @Test("Channel management refuses what reference 5.3/5.6 refuses, with the documented status and reason")
    func managementRefusals() throws {
        var channels = MockChannels()
        let cases: [(MockRequest, Int, APNsReason)] = [
            (Self.request("PUT", "/1/apps/dev.lfg.app/channels"), 405, .methodNotAllowed),
            (Self.request("POST", "/1/apps/dev.lfg.app/all-channels"), 404, .badPath),
            (Self.request("GET", "/1/apps/dev.lfg.app/channels/abc"), 404, .badPath),
            (Self.request("GET", "/1/apps/com.other/all-channels"), 403, .topicMismatch),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels"), 400, .payloadEmpty),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", body: "{"), 400, .badRequestPayload),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", body: #"{"message-storage-policy":1}"#), 400, .missingPushType),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", body: #"{"message-storage-policy":1,"push-type":"alert"}"#),
             400, .invalidPushType),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", body: #"{"message-storage-policy":2,"push-type":"LiveActivity"}"#),
             400, .badRequestParams),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", body: #"{"push-type":"LiveActivity"}"#), 400, .badRequestParams),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", body: #"{"message-storage-policy":1,"push-type":"LiveActivity","x":1}"#),
             400, .badRequestParams),
            (Self.request("POST", "/1/apps/dev.lfg.app/channels", headers: ["apns-request-id": "nope"], body: Self.create),
             400, .badMessageID),
            (Self.request("GET", "/1/apps/dev.lfg.app/channels"), 400, .missingChannelID),
            (Self.request("DELETE", "/1/apps/dev.lfg.app/channels", headers: ["apns-channel-id": "not base64!"]), 400, .badChannelID),
            (Self.request("DELETE", "/1/apps/dev.lfg.app/channels", headers: ["apns-channel-id": "bm9uZQ=="]), 400, .channelNotRegistered),
        ]
        for (request, status, reason) in cases {
            let answer = try #require(answer(request, channels: &channels))
            #expect(answer.status == status && answer.reason == reason, "\(request.method) \(request.path) \(request.body.count)")
        }
        #expect(channels.channels.isEmpty, "no refused call made a channel")
    }

    @Test("Broadcasts refuse what reference 5.5/5.6 refuses")
    func broadcastRefusals() throws {
        var channels = MockChannels()
        let created = try #require(answer(Self.request("POST", "/1/apps/dev.lfg.app/channels", body: Self.create), channels: &channels))
        let id = try #require(created.headers["apns-channel-id"])
        let good = ["apns-channel-id": id, "apns-push-type": "liveactivity", "apns-priority": "5", "apns-expiration": "0"]
        func publish(_ path: String = "/4/broadcasts/apps/dev.lfg.app", drop: String? = nil, set: [String: String] = [:],
                     body: String = #"{"aps":{}}"#) -> MockRequest {
            var headers = good
            if let drop { headers[drop] = nil }
            headers.merge(set) { $1 }
            return Self.request("POST", path, headers: headers, body: body)
        }
        let cases: [(MockRequest, Int, APNsReason)] = [
            (Self.request("GET", "/4/broadcasts/apps/dev.lfg.app", headers: good), 405, .methodNotAllowed),
            (publish("/4/broadcasts/apps/dev.lfg.app.push-type.liveactivity"), 400, .topicDisallowed),
            (publish("/4/broadcasts/apps/com.other"), 403, .topicMismatch),
            (publish(drop: "apns-channel-id"), 400, .missingChannelID),
            (publish(set: ["apns-channel-id": "%%%"]), 400, .badChannelID),
            (publish(set: ["apns-channel-id": "bm9uZQ=="]), 400, .channelNotRegistered),
            (publish(drop: "apns-push-type"), 400, .missingPushType),
            (publish(set: ["apns-push-type": "alert"]), 400, .invalidPushType),
            (publish(drop: "apns-priority"), 400, .badPriority),
            (publish(set: ["apns-priority": "7"]), 400, .badPriority),
            (publish(drop: "apns-expiration"), 400, .badExpirationDate),
            (publish(set: ["apns-expiration": "soon"]), 400, .badExpirationDate),
            (publish(set: ["apns-request-id": "nope"]), 400, .badMessageID),
            (publish(body: ""), 400, .payloadEmpty),
            (publish(body: String(repeating: " ", count: 5121)), 413, .payloadTooLarge),
        ]
        for (request, status, reason) in cases {
            let answer = try #require(answer(request, channels: &channels))
            #expect(answer.status == status && answer.reason == reason, "\(request.headers) \(request.path)")
        }
        #expect(answer(publish(set: ["apns-push-type": "LiveActivity"], body: String(repeating: " ", count: 5120)),
                       channels: &channels)?.status == 200)
    }

    @Test("Ids are base64, unique and never reused after a delete; the list is in creation order")
    func ids() throws {
        var channels = MockChannels()
        var ids: [String] = []
        for _ in 0..<3 {
            let created = try #require(answer(Self.request("POST", "/1/apps/dev.lfg.app/channels", body: Self.create), channels: &channels))
            ids.append(try #require(created.headers["apns-channel-id"]))
        }
        #expect(Set(ids).count == 3 && ids.allSatisfy { (try? BroadcastChannelID($0)) != nil })
        _ = answer(Self.request("DELETE", "/1/apps/dev.lfg.app/channels", headers: ["apns-channel-id": ids[1]]), channels: &channels)
        let list = try #require(answer(Self.request("GET", "/1/apps/dev.lfg.app/all-channels"), channels: &channels))
        #expect(try JSONValue(parsing: list.body) == .object(["channels": .array([.string(ids[0]), .string(ids[2])])]))
        let again = try #require(answer(Self.request("POST", "/1/apps/dev.lfg.app/channels", body: Self.create), channels: &channels))
        #expect(!ids.contains(again.headers["apns-channel-id"] ?? ""))
    }
}
