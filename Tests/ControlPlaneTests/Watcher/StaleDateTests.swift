import APNs
import ControlPlane
import FleetCore
import Testing

/// Honest staleness (guard `stale-date`): every start and update says when it stops being true, and a
/// steady card is refreshed before then, so only a card nobody can reach reads stale.
@Suite struct StaleDateTests {
    @Test("Every start and update carries stale-date = push time + LFG_STALE_AFTER_S; an end carries none")
    func everyStartAndUpdate() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        let start = try #require(harness.tick().batches.first)
        #expect(start.staleDate == harness.now + CardPolicy.defaultStaleAfterSeconds)
        harness.answer(start)
        #expect(harness.card()?.staleAt == start.staleDate)
        harness.register(.update, hex("c"))
        harness.work("s2")
        let update = try #require(harness.tick().batches.first)
        #expect(update.action == .update)
        #expect(update.staleDate == harness.now + CardPolicy.defaultStaleAfterSeconds)
        harness.answer(update)
        harness.finish("s1")
        harness.finish("s2")
        let end = try #require(harness.tick().batches.first)
        #expect(end.action == .end && end.staleDate == nil)
    }

    @Test("Channel-mode starts and broadcasts carry it too, and the configured value is the one used")
    func channelModeAndConfiguredValue() throws {
        var harness = WatcherHarness.withChannelCard(policy: CardPolicy(staleAfter: 120))
        #expect(harness.card().map { $0.staleAt == $0.startedAt + 120 } == true)
        harness.work("s2")
        let update = try #require(harness.tick().batches.first)
        #expect(update.isBroadcast && update.staleDate == harness.now + 120)
    }

    @Test("A steady card is refreshed (same content, priority 5) when its stale date is a third of the way off, not before")
    func refreshBeforeStale() throws {
        var harness = WatcherHarness.withLiveCard()
        let staleAt = try #require(harness.card()?.staleAt)
        let lead = CardPolicy().staleRefreshLead
        #expect(lead == CardStaleness.refreshLead(staleAfter: CardPolicy.defaultStaleAfterSeconds))
        let before = harness.now
        #expect(harness.tick(advancing: staleAt - lead - before - 1).batches.isEmpty)
        let refresh = try #require(harness.tick(advancing: 1).batches.first)
        #expect(refresh.action == .update)
        #expect(refresh.priority == .powerConsidered)
        #expect(refresh.contentState.isSame(as: harness.card()!.contentState!))
        #expect(refresh.staleDate == harness.now + CardPolicy.defaultStaleAfterSeconds)
        harness.answer(refresh)
        #expect(harness.card()?.staleAt == refresh.staleDate)
        #expect(harness.tick().batches.isEmpty)
    }

    static func startStaleDate(_ guards: GuardSet) -> UnixTime? {
        var harness = WatcherHarness(guards: guards)
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        return harness.tick().batches.first?.staleDate
    }

    static func refreshes(_ guards: GuardSet) -> Int {
        var harness = WatcherHarness.withLiveCard(guards: guards)
        return (0..<120).map { _ in harness.tickAndDeliver(advancing: 30).batches.count }.reduce(0, +)
    }

    @Test("stale-date: without it no push says when it stops being true, and a steady card is never refreshed")
    func guardStaleDate() {
        #expect(Self.startStaleDate(.all) != nil)
        #expect(Self.startStaleDate(.without(.staleDate)) == nil)
        // An hour of steady card: refreshed at the first 30-s tick 80 s after each push (every 90 s), with
        // the guard; never without it.
        #expect(Self.refreshes(.all) == 40)
        #expect(Self.refreshes(.without(.staleDate)) == 0)
    }
}
