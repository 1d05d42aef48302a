import APNs
import APNsHTTP2
import APNsMock
import ControlPlane
import FleetCore
import Foundation
import Testing

/// The control plane, the real HTTP/2 transport and the APNs stand-in (`lfg apns-mock`) on loopback.
struct ChannelWorld {
    let mock: APNsMockServer
    let sender: HTTP2PushSender
    let service: ControlPlaneService
    let log = InMemoryDecisionLog()
    let time = ManualTime(1_800_000_000)

    init(channelLimit: Int = MockState.defaultChannelLimit) async throws {
        mock = try APNsMockServer(bundleID: BundleID("com.example.lfg"), channelLimit: channelLimit)
        sender = try HTTP2PushSender.pointed(at: mock)
        let gateway = APNsPushGateway(sender: sender, channels: sender, bundleID: BundleID("com.example.lfg"))
        service = ControlPlaneService(
            .init(store: InMemoryStore(), gateway: gateway, decisionLog: log, wallClock: time.wallClock))
        try await service.start()
    }

    func stop() {
        sender.shutdown()
        mock.stop()
    }

    /// A sandbox phone with push-to-start token `a`, asking for channel cards or not.
    func phone(channels: Bool) async throws {
        try await service.reportDevice(
            "phone", DeviceProfile(env: .sandbox, liveActivityChannels: channels), pushToStartToken: hexA)
    }

    func events(_ event: DecisionEvent) -> [DecisionLogLine] { log.all.filter { $0.event == event } }
}

/// The `aps` dictionary of a recorded push.
func aps(_ record: MockRecord?) -> [String: Any] {
    ((record?.bodyJSON as? [String: Any])?["aps"] as? [String: Any]) ?? [:]
}

@Suite(.timeLimit(.minutes(1))) struct ChannelHTTP2Tests {
    @Test("Over HTTP/2: the channel is created, the card push-started on it, updated by publishing, and the channel deleted with the device")
    func createStartPublishDelete() async throws {
        let world = try await ChannelWorld()
        defer { world.stop() }
        try await world.phone(channels: true)
        try await world.service.putSession("s1", SessionReport(title: "t", busy: true))
        await world.service.tick()
        let channel = try #require(world.mock.state.channels.first)
        #expect(world.mock.state.channels.count == 1)
        #expect(channel.policy == .mostRecentMessage)
        #expect(world.events(.channelCreated).count == 1)

        await world.service.tick()
        let start = try #require(world.mock.state.records(for: hexA).last)
        #expect(start.status == 200)
        #expect(aps(start)["event"] as? String == "start")
        #expect(aps(start)["input-push-channel"] as? String == channel.id)
        #expect(aps(start)["input-push-token"] == nil)
        #expect(aps(start)["stale-date"] as? Int == Int(world.time.now + CardPolicy.defaultStaleAfterSeconds))
        #expect(start.headers["apns-priority"] == "10")

        world.time.advance(10)
        try await world.service.putSession("s2", SessionReport(title: "t", busy: true))
        await world.service.tick()
        let broadcasts = world.mock.state.broadcasts(to: channel.id)
        let update = try #require(broadcasts.last)
        #expect(broadcasts.count == 1)
        #expect(update.status == 200)
        #expect(aps(update)["event"] as? String == "update")
        #expect(aps(update)["stale-date"] as? Int == Int(world.time.now + CardPolicy.defaultStaleAfterSeconds))
        // A new session moves the counts, and the budget is spare: priority 10 (guard spare-budget).
        #expect(update.headers["apns-priority"] == "10")
        #expect(update.headers["apns-expiration"] == "\(Int(world.time.now) + 8 * 3600)")
        let line = try #require(world.events(.broadcast).last)
        #expect(line.fields[.status] == .integer(200))
        #expect(line.fields[.channel] == .string(String(channel.id.prefix(8))))

        try await world.service.deleteDevice("phone")
        #expect(world.mock.state.channels.isEmpty)
        // The card's channel and the spare made for the next card (guard channel-rotation).
        #expect(world.events(.channelDeleted).count == 2)
    }

    @Test("Over HTTP/2: at the stand-in's channel limit the phone falls back to token mode, logged, and gets a token card")
    func limitFallback() async throws {
        let world = try await ChannelWorld(channelLimit: 0)
        defer { world.stop() }
        try await world.phone(channels: true)
        try await world.service.putSession("s1", SessionReport(title: "t", busy: true))
        await world.service.tick()
        let failed = try #require(world.events(.channelFailed).first)
        #expect(failed.fields[.reason] == .string("CannotCreateChannelConfig"))
        #expect(failed.fields[.fallback] == .string("token"))
        #expect(try await world.service.device("phone").mode == .token)
        await world.service.tick()
        let start = try #require(world.mock.state.records(for: hexA).last)
        #expect(aps(start)["input-push-channel"] == nil)
        #expect(aps(start)["input-push-token"] as? Int == 1)
    }

    @Test("Over HTTP/2: renewal before 8 h starts the new card on the spare channel, ends the old on its own, holds the old channel")
    func renewalBeforeEightHours() async throws {
        let world = try await ChannelWorld()
        defer { world.stop() }
        try await world.phone(channels: true)
        try await world.service.putSession("s1", SessionReport(title: "t", busy: true))
        await world.service.tick()
        await world.service.tick()
        await world.service.tick()  // the spare channel (guard channel-rotation)
        let first = try #require(world.mock.state.channels.first).id
        #expect(world.mock.state.channels.count == 2)
        let second = try #require(world.mock.state.channels.last).id
        world.time.advance(CardPolicy().renewAfter)
        await world.service.tick()  // the new card on the spare, then at once the old card's end
        await world.service.tick()
        // The old channel is held (its end may still be stored for an offline phone), not deleted yet.
        #expect(world.mock.state.channels.map(\.id).contains(first))
        let starts = world.mock.state.records(for: hexA).filter { aps($0)["event"] as? String == "start" }
        #expect(starts.count == 2)
        #expect(aps(starts.last)["input-push-channel"] as? String == second)
        let oldEnd = try #require(world.mock.state.broadcasts(to: first).last)
        #expect(aps(oldEnd)["event"] as? String == "end")
        #expect(world.mock.state.broadcasts(to: second).isEmpty)
        let gap = oldEnd.receivedAt - (starts.last?.receivedAt ?? 0)
        #expect(gap >= 0 && gap < 3)
        #expect(world.events(.renewed).count == 1)
        #expect(world.events(.channelDeleted).isEmpty)
    }

    @Test("Over HTTP/2: a token card's end forgets its update token, so the next card's updates never reach the corpse")
    func tokenForgotten() async throws {
        let world = try await ChannelWorld()
        defer { world.stop() }
        try await world.phone(channels: false)
        try await world.service.registerToken("phone", .update, env: .sandbox, hex: hexB)
        try await world.service.putSession("s1", SessionReport(title: "t", busy: true))
        await world.service.tick()
        try await world.service.deleteSession("s1")
        await world.service.tick()
        #expect(world.mock.state.records(for: hexB).map { aps($0)["event"] as? String } == ["update", "end"])
        #expect(await world.service.tokenListings().filter { $0.kind == .update }.isEmpty)
        try await world.service.putSession("s2", SessionReport(title: "t", busy: true))
        await world.service.tick()
        world.time.advance(10)
        try await world.service.putSession("s3", SessionReport(title: "t", busy: true))
        await world.service.tick()
        #expect(world.mock.state.records(for: hexB).count == 2)
        #expect(aps(world.mock.state.records(for: hexA).last)["event"] as? String == "start")
    }
}
