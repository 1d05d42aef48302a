import APNs
import APNsHTTP2
import APNsMock
import FleetCore
import Testing

/// The channel management API and broadcasts over real HTTP/2 against the stand-in.
@Suite struct ChannelTransportTests {
    func create(_ harness: MockHarness, _ policy: ChannelStoragePolicy = .mostRecentMessage) async throws
        -> ChannelManagementResponse
    {
        try await harness.send(ChannelManagementRequest.create(storagePolicy: policy, bundleID: Fixture.bundle, environment: .sandbox))
    }

    func publish(
        _ harness: MockHarness, _ payload: LiveActivityPayload, to channel: BroadcastChannelID,
        expiration: PushExpiration = .at(1_764_403_600)
    ) async throws -> PushResponse {
        try await harness.send(try PushRequest.broadcast(
            payload, channel: channel, environment: .sandbox, bundleID: Fixture.bundle, priority: .powerConsidered,
            expiration: expiration))
    }

    @Test("Create, read, list, publish, delete: each answers as APNs documents, and the stand-in records what went where")
    func lifecycle() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let created = try await create(harness)
        #expect(created.status == 201 && created.isSuccess && created.requestID != nil)
        let channel = try #require(created.channelID)
        let read = try await harness.send(ChannelManagementRequest.read(channel, bundleID: Fixture.bundle, environment: .sandbox))
        #expect(read.status == 200 && read.storagePolicy == .mostRecentMessage && read.channelID == channel)
        let list = try await harness.send(ChannelManagementRequest.listAll(bundleID: Fixture.bundle, environment: .sandbox))
        #expect(list.status == 200 && list.channels == [channel])
        let update = LiveActivityPayload.update(state: Fixture.state, timestamp: 1_764_400_000, staleDate: 1_764_400_900)
        let published = try await publish(harness, update, to: channel)
        #expect(published.status == 200 && published.outcome == .accepted)
        let broadcasts = harness.server.state.broadcasts(to: channel.rawValue)
        #expect(broadcasts.count == 1 && broadcasts.first?.isDelivered == true)
        #expect(broadcasts.first?.headers["apns-push-type"] == "liveactivity" && broadcasts.first?.topic == nil)
        #expect(broadcasts.first?.path == "/4/broadcasts/apps/dev.lfg.app")
        let deleted = try await harness.send(ChannelManagementRequest.delete(channel, bundleID: Fixture.bundle, environment: .sandbox))
        #expect(deleted.status == 204 && deleted.isSuccess)
        #expect(harness.server.state.channels.isEmpty)
        let kinds = harness.server.state.records.map(\.kind)
        #expect(kinds == [.channelManagement, .channelManagement, .channelManagement, .broadcast, .channelManagement])
    }

    @Test("Publishing to a deleted channel is 400 ChannelNotRegistered: drop the channel")
    func publishToDeleted() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let channel = try #require(try await create(harness).channelID)
        _ = try await harness.send(ChannelManagementRequest.delete(channel, bundleID: Fixture.bundle, environment: .sandbox))
        let response = try await publish(harness, .end(state: .zeroed(at: 1), timestamp: 1, dismissalDate: 1), to: channel)
        #expect(response.status == 400 && response.reason == .channelNotRegistered)
        #expect(response.remedy == .dropChannel && response.outcome == .tokenDead)
        let read = try await harness.send(ChannelManagementRequest.read(channel, bundleID: Fixture.bundle, environment: .sandbox))
        #expect(read.reason == .channelNotRegistered)
    }

    @Test("Past the channel limit a create is 400 CannotCreateChannelConfig: fall back to token mode")
    func channelLimit() async throws {
        let harness = try MockHarness(channelLimit: 2)
        defer { harness.stop() }
        #expect(try await create(harness).isSuccess)
        let second = try #require(try await create(harness).channelID)
        let refused = try await create(harness)
        #expect(refused.status == 400 && refused.isChannelLimitReached && refused.remedy == .useTokenMode)
        #expect(refused.channelID == nil)
        _ = try await harness.send(ChannelManagementRequest.delete(second, bundleID: Fixture.bundle, environment: .sandbox))
        #expect(try await create(harness).isSuccess, "deleting a channel makes room")
    }

    @Test("Programmed faults: the next creates answer 500 (back off), then creating works again; a create is not resent")
    func faults() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        harness.server.state.failChannelCalls(.create, status: 500, reason: .internalServerError, count: 2)
        let first = try await create(harness)
        let second = try await create(harness)
        #expect(first.status == 500 && first.remedy == .backOff && second.status == 500)
        #expect(try await create(harness).status == 201)
        #expect(harness.server.state.channels.count == 1)
    }

    @Test("A no-storage channel refuses a non-zero expiration; a broadcast over 4 KB but within 5 KB is taken")
    func policyAndSize() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let channel = try #require(try await create(harness, .noStorage).channelID)
        var state = Fixture.state
        state.rows = (0..<3).map { Row(sid: SessionID("s\($0)"), title: String(repeating: "t", count: 1400), state: .working, since: 0) }
        let large = LiveActivityPayload.update(state: state, timestamp: 1, staleDate: 2)
        let refused = try await publish(harness, large, to: channel)
        #expect(refused.status == 400 && refused.reason == .badExpirationDate)
        let taken = try await publish(harness, large, to: channel, expiration: ChannelStoragePolicy.noStorage.broadcastExpiration(now: 1))
        #expect(taken.status == 200)
        let body = try #require(harness.server.state.broadcasts(to: channel.rawValue).last?.body)
        #expect(body.count > 4096 && body.count <= 5120)
    }

    @Test("A stale date rides on every start and update built, device and broadcast alike, as sent on the wire")
    func staleDateOnTheWire() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let channel = try #require(try await create(harness).channelID)
        let stale: UnixTime = 1_764_400_900
        let start = LiveActivityPayload.start(state: Fixture.state, timestamp: 1_764_400_000, staleDate: stale, inputPushChannel: channel)
        let update = LiveActivityPayload.update(state: Fixture.state, timestamp: 1_764_400_001, staleDate: stale)
        for payload in [start, update] {
            let response = try await harness.send(try PushRequest.liveActivity(
                payload, token: MockHarness.token(1), environment: .sandbox, bundleID: Fixture.bundle, priority: .powerConsidered))
            #expect(response.status == 200)
        }
        #expect(try await publish(harness, update, to: channel).status == 200)
        let sent = harness.server.state.records.filter { $0.kind != .channelManagement }
        #expect(sent.count == 3)
        for record in sent {
            let aps = try JSONValue(parsing: record.body)["aps"]
            #expect(aps?["stale-date"] == .number(stale), "\(record.path)")
        }
        let startBody = try JSONValue(parsing: sent[0].body)
        #expect(startBody["aps"]?["input-push-channel"] == .string(channel.rawValue))
        #expect(sent[0].headers["apns-priority"] == "5")
    }
}
