import APNs
import ControlPlane
import FleetCore
import Testing

/// The 8-hour limit (guard `renewal`): a card is replaced before iOS ends it, with no gap and no lasting
/// duplicate, and a card iOS has ended is forgotten.
@Suite struct RenewalTests {
    /// Ticks every `step` seconds until `until` seconds after the card started, delivering everything
    /// (and what the answers send in turn); returns every effect of ticks and answers.
    static func run(_ harness: inout WatcherHarness, until: Double, step: Double = 60) -> [WatcherEffect] {
        let startedAt = harness.card()!.startedAt
        var effects: [WatcherEffect] = []
        while harness.now + step <= startedAt + until {
            var round = harness.tick(advancing: step)
            while !round.batches.isEmpty {
                effects += round
                round = round.batches.flatMap { harness.answer($0) }
            }
            effects += round
        }
        return effects
    }

    @Test("Token mode: the card is renewed at 7.5 h, not a tick before; the old card is ended by its own token right after")
    func tokenModeRenewal() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.register(.pushToStart, hex("a"))
        let startedAt = try #require(harness.card()?.startedAt)
        let renewAfter = CardPolicy().renewAfter
        #expect(renewAfter == 27_000)
        _ = Self.run(&harness, until: renewAfter - 60)
        #expect(harness.card()?.startedAt == startedAt)
        harness.now = startedAt + renewAfter - 1
        let beforeRenewal = harness.tick(advancing: 0).batches
        #expect(beforeRenewal.filter { $0.action == .start }.isEmpty)
        // A stale-date refresh may fall due on the same tick; it is answered before the renewal's tick.
        for refresh in beforeRenewal { _ = harness.answer(refresh) }

        let renewal = try #require(harness.tick(advancing: 1).batches.first)
        #expect(renewal.action == .start)
        #expect(renewal.targets.map(\.hex) == [hex("a")])
        #expect(renewal.inputPushChannel == nil)
        #expect(renewal.staleDate != nil)
        // The moment the new card is delivered, the old one's end leaves, to the old token only.
        let afterStart = harness.answer(renewal)
        let oldEnd = try #require(afterStart.batches.first)
        #expect(oldEnd.action == .end)
        #expect(oldEnd.targets.map(\.hex) == [hex("c")])
        #expect(harness.card()?.startedAt == harness.now)
        #expect(harness.record()?.tokens.of(.update).isEmpty == true)
        let finished = harness.answer(oldEnd)
        let renewed = try #require(finished.logLines.first { $0.event == .renewed })
        #expect(renewed.fields[.oldEnded] == .bool(true))
        #expect(renewed.fields[.mode] == .string("token"))
        #expect(harness.record()?.retiringCard == nil)
        // Gap: the new card was accepted before the old one's end was even decided; both at one instant.
        #expect(oldEnd.decidedAt == renewal.decidedAt)
    }

    @Test("Token mode, old token never handed over: nothing can end the old card; renewed says so")
    func tokenModeRenewalWithoutOldToken() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        harness.tickAndDeliver()
        let effects = Self.run(&harness, until: CardPolicy().renewAfter + 60)
        #expect(effects.batches.map(\.action) == [.start])
        let renewed = try #require(effects.logLines.first { $0.event == .renewed })
        #expect(renewed.fields[.oldEnded] == .bool(false))
        #expect(harness.record()?.retiringCard == nil)
        #expect(harness.card().map { $0.startedAt > 1_000 + CardPolicy().renewAfter } == true)
    }

    @Test("Channel mode: a fresh channel first, the new card starts on it, the old card is ended on the old channel, which is then deleted")
    func channelModeRenewal() throws {
        // Without a spare channel (guard channel-rotation off): the fresh channel is made first.
        var harness = WatcherHarness.withChannelCard(guards: .without(.channelRotation))
        let startedAt = try #require(harness.card()?.startedAt)
        harness.now = startedAt + CardPolicy().renewAfter - 1
        let due = harness.tick(advancing: 1)
        #expect(due.channelRequests == [.create(.legacy, .sandbox, .mostRecentMessage)])
        #expect(due.batches.isEmpty)
        harness.answerChannels(due)
        #expect(harness.record()?.channel.successor?.id == channelID(2))

        let renewal = try #require(harness.tick(advancing: 1).batches.first)
        #expect(renewal.action == .start && renewal.inputPushChannel == channelID(2))
        let afterStart = harness.answer(renewal)
        let oldEnd = try #require(afterStart.batches.first)
        #expect(oldEnd.action == .end && oldEnd.channel?.id == channelID(1))
        #expect(harness.card()?.channel == channelID(2))
        #expect(harness.record()?.channel.current?.id == channelID(2))
        let finished = harness.answer(oldEnd)
        #expect(finished.loggedEvents.contains(.renewed))
        #expect(finished.channelRequests.map { request -> BroadcastChannelID? in
            if case .delete(let channel) = request { channel.id } else { nil }
        } == [channelID(1)])
        // Updates now go to the new channel only.
        harness.work("s2")
        #expect(harness.tick().batches.first?.channel?.id == channelID(2))
    }

    /// Every push sent from `renewAfter - 1` on, ticking each second and answering everything.
    static func pushesAroundRenewal(guards: GuardSet) throws -> (sent: [PushBatch], oldChannel: BroadcastChannelID?) {
        var harness = WatcherHarness.withChannelCard(guards: guards)
        let startedAt = try #require(harness.card()?.startedAt)
        let oldChannel = harness.card()?.channel
        harness.now = startedAt + CardPolicy().renewAfter - 1
        var sent: [PushBatch] = []
        for _ in 0..<6 {
            var round = harness.tick(advancing: 1)
            harness.answerChannels(round)
            while !round.batches.isEmpty {
                sent += round.batches
                round = round.batches.flatMap { harness.answer($0) }
                harness.answerChannels(round)
            }
        }
        return (sent, oldChannel)
    }

    @Test("Channel mode: the old card's end is published once more on its held channel once the new card lives")
    func renewalEndRepeated() throws {
        let (sent, old) = try Self.pushesAroundRenewal(guards: .all)
        #expect(sent.filter { $0.action == .end && $0.channel?.id == old }.count == 2)
        // Without channel-rotation one end only: a broadcast lost after APNs' 200 leaves two cards.
        let (unguarded, oldUnguarded) = try Self.pushesAroundRenewal(guards: .without(.channelRotation))
        #expect(unguarded.filter { $0.action == .end && $0.channel?.id == oldUnguarded }.count == 1)
    }

    @Test("No renewal once nothing is active: the card just ends")
    func noRenewalWhenIdle() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.finish("s1")
        harness.now += CardPolicy().renewAfter
        #expect(harness.tick().batches.map(\.action) == [.end])
    }

    static func cardAfter9Hours(_ guards: GuardSet) -> (startedAt: UnixTime?, starts: Int) {
        var harness = WatcherHarness.withLiveCard(guards: guards)
        harness.register(.pushToStart, hex("a"))
        let effects = run(&harness, until: 9 * 3600)
        return (harness.card()?.startedAt, effects.batches.filter { $0.action == .start }.count)
    }

    @Test("renewal: without it, the server keeps updating a card iOS ended at 8 hours and never starts another")
    func guardRenewal() {
        let guarded = Self.cardAfter9Hours(.all)
        #expect(guarded.starts == 1)
        #expect(guarded.startedAt.map { $0 > 1_000 + 7 * 3600 } == true)
        let unguarded = Self.cardAfter9Hours(.without(.renewal))
        #expect(unguarded.starts == 0)
        #expect(unguarded.startedAt.map { $0 < 1_100 } == true)
    }

    @Test("A card past 8 hours that nothing renewed is forgotten with its token, and a new one started")
    func expiredCardForgotten() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.register(.pushToStart, hex("a"))
        harness.now += CardPolicy.cardLifetimeSeconds
        let effects = harness.tick(advancing: 0)
        #expect(effects.loggedEvents.prefix(2) == [.cardExpired, .tokenPruned])
        #expect(effects.batches.map(\.action) == [.start])
        #expect(harness.record()?.tokens.of(.update).isEmpty == true)
    }
}
