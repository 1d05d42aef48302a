import APNs
import ControlPlane
import FleetCore
import Testing

/// Broadcast channels (guard `broadcast-channels`, contract 8.1) at the watcher: made, stored, used to
/// start, update and end the card, given up at the limit, deleted when nobody needs them.
@Suite struct ChannelModeTests {
    @Test("A device that asks for channels gets one channel in its env, policy 1, stored with the device")
    func channelCreatedAndStored() throws {
        var harness = WatcherHarness()
        harness.report()
        let tick = harness.tick()
        #expect(tick.channelRequests == [.create(.legacy, .sandbox, .mostRecentMessage)])
        #expect(harness.tick().channelRequests.isEmpty)  // one request in flight, not one per tick
        let answered = harness.answerChannels(tick)
        let current = try #require(harness.record()?.channel.current)
        #expect(current == DeviceChannel(id: channelID(1), env: .sandbox, deviceId: .legacy, createdAt: harness.now))
        #expect(answered.loggedEvents == [.channelCreated])
        #expect(answered.logLines.first?.fields[.channel] == .string(String(channelID(1).rawValue.prefix(8))))
        #expect(answered.contains(.saveDevice(.legacy, harness.record()!)))
        #expect(harness.watcher.mode(of: harness.record()!) == .channel)
        #expect(harness.tick().channelRequests.isEmpty)
    }

    @Test("A channel device's card is push-started with input-push-channel, only to that env's tokens")
    func startCarriesInputPushChannel() throws {
        var harness = WatcherHarness()
        harness.report()
        harness.register(.pushToStart, hex("a"))
        harness.register(.pushToStart, hex("p"), env: .production)
        harness.work("s1")
        let first = harness.tick()
        // The channel is one request away: no token card is started meanwhile.
        #expect(first.batches.isEmpty)
        harness.answerChannels(first)
        let start = try #require(harness.tick().batches.first)
        #expect(start.action == .start)
        #expect(start.inputPushChannel == channelID(1))
        #expect(start.targets.map(\.hex) == [hex("a")])
        #expect(start.channel == nil)
        harness.answer(start)
        #expect(harness.card()?.channel == channelID(1))
    }

    @Test("A channel card is updated and ended by publishing to its channel, with no update token")
    func updatesAndEndsByBroadcast() throws {
        var harness = WatcherHarness.withChannelCard()
        harness.work("s2")
        let update = try #require(harness.tick().batches.first)
        #expect(update.action == .update)
        #expect(update.channel?.id == channelID(1))
        #expect(update.targets.isEmpty)
        let answered = harness.answer(update)
        #expect(answered.loggedEvents == [.broadcast])
        let line = try #require(answered.logLines.first)
        #expect(line.fields[.channel] == .string(String(channelID(1).rawValue.prefix(8))))
        #expect(line.fields[.action] == .string("update") && line.fields[.status] == .integer(200))
        #expect(line.fields[.env] == .string("sandbox"))
        #expect(harness.card()?.contentState?.working == 2)

        harness.finish("s1")
        harness.finish("s2")
        let end = try #require(harness.tick().batches.first)
        #expect(end.action == .end && end.channel?.id == channelID(1) && end.targets.isEmpty)
        harness.answer(end)
        #expect(harness.card() == nil)
        // The ended card's channel leaves the device (see ChannelRotationTests); the spare is next.
        #expect(harness.record()?.channel.current?.id == channelID(2))
    }

    @Test("A publish APNs refuses leaves the card as it was, and the next tick publishes again")
    func failedPublishResends() throws {
        var harness = WatcherHarness.withChannelCard()
        harness.work("s2")
        let update = try #require(harness.tick().batches.first)
        let answered = harness.answer(update, broadcast: ChannelAnswer(status: 500, reason: .internalServerError))
        #expect(answered.loggedEvents == [.broadcast, .noneAccepted])
        #expect(harness.card()?.contentState?.working == 1)
        #expect(harness.tick().batches.first?.channel?.id == channelID(1))
    }

    @Test("A channel APNs no longer knows is dropped with its card, and a new channel and card follow")
    func lostChannel() throws {
        var harness = WatcherHarness.withChannelCard()
        harness.work("s2")
        let update = try #require(harness.tick().batches.first)
        let answered = harness.answer(update, broadcast: ChannelAnswer(status: 400, reason: .channelNotRegistered))
        #expect(answered.loggedEvents == [.broadcast, .channelFailed])
        #expect(harness.card() == nil)
        #expect(harness.record()?.channel.channels.map(\.id) == [channelID(2)])
        // The spare takes over at once; without it a new channel is made first.
        #expect(harness.tick().batches.first?.inputPushChannel == channelID(2))

        var unspared = WatcherHarness.withChannelCard(guards: .without(.channelRotation))
        unspared.work("s2")
        let lost = try #require(unspared.tick().batches.first)
        unspared.answer(lost, broadcast: ChannelAnswer(status: 400, reason: .channelNotRegistered))
        let next = unspared.tick()
        #expect(next.channelRequests == [.create(.legacy, .sandbox, .mostRecentMessage)])
        unspared.answerChannels(next)
        #expect(unspared.tick().batches.first?.inputPushChannel == channelID(2))
    }

    @Test("At the channel limit the device falls back to token mode at once, and the log says so")
    func fallbackAtLimit() throws {
        var harness = WatcherHarness()
        harness.report()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        let answered = harness.answerChannels(
            harness.tick(), create: ChannelAnswer(status: 400, reason: .cannotCreateChannelConfig))
        let line = try #require(answered.logLines.first)
        #expect(line.event == .channelFailed)
        #expect(line.fields[.status] == .integer(400))
        #expect(line.fields[.reason] == .string("CannotCreateChannelConfig"))
        #expect(line.fields[.fallback] == .string("token"))
        #expect(harness.record()?.channel.fallbackReason == "CannotCreateChannelConfig")
        #expect(harness.watcher.mode(of: harness.record()!) == .token)
        let start = try #require(harness.tick().batches.first)
        #expect(start.inputPushChannel == nil)
        #expect(harness.tick().channelRequests.isEmpty)
        // The app's next report (each launch) tries again.
        harness.report()
        #expect(harness.record()?.channel.fallbackReason == nil)
    }

    @Test("Transient failures are retried with a doubling wait; after 3 in a row the device uses token mode")
    func fallbackAfterRepeatedFailures() throws {
        var harness = WatcherHarness()
        harness.report()
        let failure = ChannelAnswer(status: 500, reason: .internalServerError)
        harness.answerChannels(harness.tick(), create: failure)
        let retryAt = try #require(harness.record()?.channel.retryAt)
        #expect(retryAt == harness.now + 30)
        #expect(harness.tick(advancing: 29).channelRequests.isEmpty)
        let second = harness.tick(advancing: 1)
        #expect(second.channelRequests.count == 1)
        harness.answerChannels(second, create: failure)
        #expect(harness.record()?.channel.retryAt == harness.now + 60)
        let third = harness.tick(advancing: 60)
        let answered = harness.answerChannels(third, create: failure)
        #expect(answered.logLines.first?.fields[.fallback] == .string("token"))
        #expect(harness.watcher.mode(of: harness.record()!) == .token)
    }

    @Test("Channels turned off: the channel is deleted once no card uses it, and forgotten once APNs confirms")
    func deletedWhenTurnedOff() throws {
        var harness = WatcherHarness.withChannelCard(guards: .without(.channelRotation))
        let channel = try #require(harness.record()?.channel.current)
        harness.report(DeviceProfile(env: .sandbox, liveActivityChannels: false))
        // The live card listens on it: it stays until that card ends.
        #expect(harness.tick().channelRequests.isEmpty)
        harness.finish("s1")
        let end = try #require(harness.tick().batches.first)
        #expect(end.channel?.id == channelID(1))
        harness.answer(end)
        let tick = harness.tick()
        #expect(tick.channelRequests == [.delete(channel)])
        #expect(tick.contains(.saveRetiredChannels([channel])))
        #expect(harness.record()?.channel.current == nil)
        let answered = harness.answerChannels(tick)
        #expect(answered.loggedEvents == [.channelDeleted])
        #expect(answered.contains(.saveRetiredChannels([])))
        #expect(harness.watcher.retiredChannels.isEmpty)
    }

    @Test("A deleted device's channel is deleted and its record forgotten; a failed delete is retried")
    func deletedWithDevice() throws {
        var harness = WatcherHarness.withChannelCard()
        let effects = harness.watcher.handle(.deviceDeleted(.legacy, at: harness.now))
        let channel = try #require(effects.channelRequests.first)
        #expect(effects.contains(.forgetDevice(.legacy)))
        #expect(harness.record() == nil)
        guard case .delete(let deviceChannel) = channel else { Issue.record("not a delete"); return }
        let failed = harness.watcher.handle(
            .channelDeletionAnswered(deviceChannel, ChannelAnswer(status: 500, reason: .internalServerError), at: harness.now))
        #expect(failed.loggedEvents == [.channelFailed])
        #expect(harness.tick(advancing: 59).channelRequests.isEmpty)
        #expect(harness.tick(advancing: 1).channelRequests == [channel])
    }

    @Test("Retired channels survive a restart and are deleted by the next process")
    func retiredChannelsSurviveRestart() {
        let channel = DeviceChannel(id: channelID(7), env: .production, deviceId: "gone", createdAt: 1)
        var watcher = Watcher()
        watcher.handle(.loaded(devices: [:], since: [:], retiredChannels: [channel], at: 10))
        #expect(watcher.handle(.ticked(FleetSnapshot(), at: 11)).channelRequests == [.delete(channel)])
    }

    @Test("The app's own channel card is adopted, so no second card is push-started")
    func channelCardAdopted() throws {
        var harness = WatcherHarness()
        harness.report()
        harness.register(.pushToStart, hex("a"))
        harness.answerChannels(harness.tick())
        harness.work("s1")
        let effects = harness.watcher.handle(.channelCardReported(.legacy, channelID(1), at: harness.now))
        #expect(effects.loggedEvents == [.adopted])
        #expect(harness.card()?.channel == channelID(1))
        let next = try #require(harness.tick().batches.first)
        #expect(next.action == .update && next.channel?.id == channelID(1))
    }

    static func firstStart(_ guards: GuardSet) -> PushBatch? {
        var harness = WatcherHarness(guards: guards)
        harness.report()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        harness.answerChannels(harness.tick())
        return harness.tick().batches.first ?? harness.watcher.boxes[.legacy]?.pending?.batch
    }

    @Test("broadcast-channels: without it, a channel device gets a token card the idle phone never hands back")
    func guardBroadcastChannels() {
        #expect(Self.firstStart(.all)?.inputPushChannel == channelID(1))
        let unguarded = Self.firstStart(.without(.broadcastChannels))
        #expect(unguarded?.action == .start)
        #expect(unguarded?.inputPushChannel == nil)
    }
}
