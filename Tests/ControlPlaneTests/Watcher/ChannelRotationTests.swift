import APNs
import ControlPlane
import FleetCore
import Testing

/// Channel rotation (guard `channel-rotation`): a channel a card was ended on never carries a later card,
/// and is deleted only once APNs can no longer hold that `end` for an offline phone.
@Suite struct ChannelRotationTests {
    static let window = Double(ChannelStoragePolicy.storageLimitSeconds)

    /// A channel card on `channel-1` (spare `channel-2`) ended by a broadcast; returns the `end`'s answer time.
    static func endedChannelCard(_ guards: GuardSet = .all) throws -> (WatcherHarness, endedAt: UnixTime) {
        var harness = WatcherHarness.withChannelCard(guards: guards)
        harness.finish("s1")
        let end = try #require(harness.tick().batches.first)
        #expect(end.action == .end && end.channel?.id == channelID(1))
        harness.answer(end)
        return (harness, harness.now)
    }

    @Test("After an end on channel C the next card starts on the spare, never on C; C is held, not deleted")
    func nextCardOnAnotherChannel() throws {
        var (harness, endedAt) = try Self.endedChannelCard()
        #expect(harness.record()?.channel.channels.map(\.id) == [channelID(2)])
        #expect(harness.watcher.retiredChannels.map(\.id) == [channelID(1)])
        #expect(harness.watcher.retiredChannels.first?.holdUntil == endedAt + Self.window)
        harness.work("s2")
        let start = try #require(harness.tick().batches.first)
        #expect(start.action == .start && start.inputPushChannel == channelID(2))
        #expect(harness.tick().channelRequests.allSatisfy { if case .delete = $0 { false } else { true } })
    }

    @Test("Once the next card has started, the old end is published on C once more (a broadcast can be lost after its 200)")
    func endRepeatedOnce() throws {
        var (harness, _) = try Self.endedChannelCard()
        harness.work("s2")
        let start = try #require(harness.tick().batches.first)
        harness.answer(start)
        let repeated = try #require(harness.tick().batches.first)
        #expect(repeated.action == .end && repeated.channel?.id == channelID(1))
        harness.answer(repeated)
        #expect(harness.card()?.channel == channelID(2))
        harness.work("s3")
        let update = try #require(harness.tick().batches.first)
        #expect(update.action == .update && update.channel?.id == channelID(2))
    }

    @Test("With no spare yet, the next start waits for a fresh channel instead of reusing C or going token mode")
    func noSpareWaitsForFreshChannel() throws {
        var harness = WatcherHarness()
        harness.report()
        harness.register(.pushToStart, hex("a"))
        harness.answerChannels(harness.tick())
        harness.work("s1")
        harness.tickAndDeliver()
        harness.finish("s1")
        let tick = harness.tick()  // the spare's create is in flight and never answered here
        let end = try #require(tick.batches.first)
        harness.answer(end)
        #expect(harness.record()?.channel.current == nil)
        // The spare's answer arrives: it is the next card's channel.
        harness.answerChannels(tick)
        harness.work("s2")
        #expect(harness.tick().batches.first?.inputPushChannel == channelID(2))
    }

    @Test("C is deleted only after the storage window, and forgotten once APNs confirms")
    func deletedAfterWindow() throws {
        var (harness, endedAt) = try Self.endedChannelCard()
        harness.now = endedAt + Self.window - 2
        #expect(harness.tick(advancing: 1).channelRequests.isEmpty)
        let due = harness.tick(advancing: 1)
        let held = try #require(harness.watcher.retiredChannels.first)
        #expect(due.channelRequests == [.delete(held)])
        let answered = harness.answerChannels(due)
        #expect(answered.loggedEvents == [.channelDeleted])
        #expect(answered.contains(.saveRetiredChannels([])))
        #expect(harness.watcher.retiredChannels.isEmpty)
    }

    @Test("A held channel survives a restart, stays held, and is deleted by the next process after the window")
    func heldChannelSurvivesRestart() async throws {
        let (harness, endedAt) = try Self.endedChannelCard()
        let held = try #require(harness.watcher.retiredChannels.first)
        for kind in StoreKind.allCases {
            let store = try kind.make()
            try await store.commit([.putRetiredChannels(harness.watcher.retiredChannels)])
            let stored = try await store.load().retiredChannels
            #expect(stored == [held], "\(kind)")
            var restarted = Watcher()
            restarted.handle(.loaded(devices: [:], since: [:], retiredChannels: stored, at: endedAt + 10))
            #expect(restarted.handle(.ticked(FleetSnapshot(), at: endedAt + 11)).channelRequests.isEmpty)
            #expect(restarted.handle(.ticked(FleetSnapshot(), at: endedAt + Self.window)).channelRequests == [.delete(held)])
        }
    }

    @Test("Renewal with rotation: the new card starts on the spare at once; the old channel is held after its end")
    func renewalHoldsOldChannel() throws {
        var harness = WatcherHarness.withChannelCard()
        let startedAt = try #require(harness.card()?.startedAt)
        harness.now = startedAt + CardPolicy().renewAfter - 1
        let renewal = try #require(harness.tick(advancing: 1).batches.first)
        #expect(renewal.action == .start && renewal.inputPushChannel == channelID(2))
        let oldEnd = try #require(harness.answer(renewal).batches.first)
        #expect(oldEnd.action == .end && oldEnd.channel?.id == channelID(1))
        let finished = harness.answer(oldEnd)
        #expect(finished.loggedEvents.contains(.renewed))
        #expect(finished.channelRequests.isEmpty)
        #expect(harness.watcher.retiredChannels.map(\.id) == [channelID(1)])
        #expect(harness.watcher.retiredChannels.first?.holdUntil == harness.now + Self.window)
    }

    @Test("channel-rotation: without it, the next card starts on the channel the last one was ended on")
    func guardChannelRotation() throws {
        var (harness, _) = try Self.endedChannelCard(.without(.channelRotation))
        harness.work("s2")
        #expect(harness.tick().batches.first?.inputPushChannel == channelID(1))
        var (guarded, _) = try Self.endedChannelCard()
        guarded.work("s2")
        #expect(guarded.tick().batches.first?.inputPushChannel == channelID(2))
    }
}
