@testable import APNs
import FleetCore
import Testing

@Suite struct BroadcastRequestTests {
    func broadcast(_ payload: LiveActivityPayload, priority: PushPriority = .powerConsidered) throws -> PushRequest {
        try PushRequest.broadcast(
            payload, channel: Fixture.channel, environment: .sandbox, bundleID: Fixture.bundle, priority: priority,
            expiration: .immediately)
    }

    @Test("A broadcast posts to /4/broadcasts/apps/<bundle> with apns-channel-id, liveactivity, priority, expiration and no topic")
    func headers() throws {
        let request = try broadcast(.update(state: Fixture.state, timestamp: 1, staleDate: 2), priority: .immediate)
        #expect(request.path == "/4/broadcasts/apps/dev.lfg.app")
        #expect(request.headers == [
            HeaderField("apns-push-type", "liveactivity"),
            HeaderField("apns-channel-id", Fixture.channel.rawValue),
            HeaderField("apns-priority", "10"),
            HeaderField("apns-expiration", "0"),
        ])
        #expect(request.channel == Fixture.channel && request.token == nil)
    }

    @Test("The caller chooses priority 5 or 10 per push, for device and broadcast pushes alike")
    func priorityPerPush() throws {
        for priority in [PushPriority.powerConsidered, .immediate] {
            let device = try PushRequest.liveActivity(
                .update(state: Fixture.state, timestamp: 1), token: Fixture.token, environment: .sandbox,
                bundleID: Fixture.bundle, priority: priority)
            let channel = try broadcast(.update(state: Fixture.state, timestamp: 1), priority: priority)
            #expect(device.headers.contains(HeaderField("apns-priority", String(priority.rawValue))))
            #expect(channel.headers.contains(HeaderField("apns-priority", String(priority.rawValue))))
        }
    }

    @Test("A broadcast may carry up to 5120 bytes, a device push only 4096: one rule, checked before sending")
    func sizeLimits() throws {
        let filler = { (count: Int) in
            try PushPayload(bytes: Array(#"{"a":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: count) + Array(#""}"#.utf8))
        }
        let device = { (payload: PushPayload) in
            try PushRequest(
                token: Fixture.token, environment: .sandbox, pushType: .liveActivity, topic: "t", priority: .immediate,
                payload: payload)
        }
        let channel = { (payload: PushPayload) in
            try PushRequest(
                destination: .channel(Fixture.channel), environment: .sandbox, pushType: .liveActivity,
                topic: Fixture.bundle.rawValue, priority: .immediate, expiration: .immediately, payload: payload)
        }
        #expect(try device(filler(4096 - 8)).payload.bytes.count == 4096)
        #expect(throws: PushRequestError.payloadTooLarge(bytes: 4097, limit: 4096)) { try device(filler(4096 - 7)) }
        #expect(try channel(filler(4097 - 8)).payload.bytes.count == 4097)
        #expect(try channel(filler(5120 - 8)).payload.bytes.count == 5120)
        #expect(throws: PushRequestError.payloadTooLarge(bytes: 5121, limit: 5120)) { try channel(filler(5120 - 7)) }
        #expect(PushDestination.device(Fixture.token).maximumPayloadBytes == 4096)
        #expect(PushDestination.channel(Fixture.channel).maximumPayloadBytes == 5120)
    }

    @Test("A broadcast cannot start a card, needs an expiration, and takes the bare bundle id")
    func refusals() throws {
        #expect(throws: PushRequestError.broadcastCannotStart) {
            try broadcast(.start(state: Fixture.state, timestamp: 1, staleDate: 2))
        }
        let payload = try PushPayload(encoding: LiveActivityPayload.update(state: Fixture.state, timestamp: 1))
        #expect(throws: PushRequestError.broadcastNeedsExpiration) {
            try PushRequest(
                destination: .channel(Fixture.channel), environment: .sandbox, pushType: .liveActivity,
                topic: "dev.lfg.app", priority: .immediate, payload: payload)
        }
        #expect(throws: PushRequestError.broadcastTopicHasSuffix("dev.lfg.app.push-type.liveactivity")) {
            try PushRequest(
                destination: .channel(Fixture.channel), environment: .sandbox, pushType: .liveActivity,
                topic: "dev.lfg.app.push-type.liveactivity", priority: .immediate, expiration: .immediately, payload: payload)
        }
    }

    @Test("A broadcast's expiration follows the channel's storage policy: 0, or at most 8 hours ahead")
    func expirationPerPolicy() {
        #expect(ChannelStoragePolicy.noStorage.broadcastExpiration(now: 1000) == .immediately)
        #expect(ChannelStoragePolicy.mostRecentMessage.broadcastExpiration(now: 1000) == .at(1000 + 8 * 3600))
        #expect(ChannelStoragePolicy.mostRecentMessage.broadcastExpiration(now: 1000, keepFor: 60) == .at(1060))
        #expect(ChannelStoragePolicy.mostRecentMessage.broadcastExpiration(now: 1000, keepFor: 86_400) == .at(1000 + 8 * 3600))
    }
}
