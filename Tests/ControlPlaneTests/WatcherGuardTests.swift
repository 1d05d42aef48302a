import ControlPlane
import FleetCore
import Testing

/// One test per server guard: each checks the guarded behaviour, and that switching the guard off
/// brings the seed's failure back (so the test fails if the guard is removed).
@Suite struct WatcherGuardTests {
    /// Phone ends the card, same sessions still active: how many starts go out over the next ticks.
    static func startsAfterClientEnd(_ guards: GuardSet) -> (starts: Int, vetoLines: Int) {
        var harness = WatcherHarness(guards: guards)
        harness.register(.pushToStart, hex("a"))
        harness.register(.update, hex("c"))
        harness.work("s1")
        harness.tickAndDeliver()
        harness.ended()
        var starts = 0
        var vetoLines = 0
        for _ in 0..<3 {
            let effects = harness.tickAndDeliver()
            starts += effects.batches.filter { $0.action == .start }.count
            vetoLines += effects.loggedEvents.filter { $0 == .startVetoed }.count
            if harness.card() != nil { harness.ended() }
        }
        return (starts, vetoLines)
    }

    @Test("start-veto: no push-to-start while every active sid was in the ended population; logged once")
    func startVeto() {
        let guarded = Self.startsAfterClientEnd(.all)
        #expect(guarded.starts == 0)
        #expect(guarded.vetoLines == 1)
        #expect(Self.startsAfterClientEnd(.without(.startVeto)).starts == 3)
    }

    @Test("start-veto lifts when a new sid becomes active, and a delivered start clears it")
    func vetoLiftsOnNewPopulation() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        harness.tickAndDeliver()
        harness.ended()
        #expect(harness.record()?.veto == ["s1"])
        #expect(harness.tick().batches.isEmpty)
        harness.work("s2")
        let start = try #require(harness.tick().batches.first)
        #expect(start.action == .start)
        harness.answer(start)
        #expect(harness.record()?.veto == nil)
    }

    @Test("start-veto is cleared by an update-token registration")
    func vetoClearedByRegistration() {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        harness.tickAndDeliver()
        harness.ended()
        harness.register(.update, hex("c"))
        #expect(harness.record()?.veto == nil)
    }

    static func updateTargets(_ guards: GuardSet) -> [String] {
        var harness = WatcherHarness(guards: guards)
        harness.register(.update, hex("c"))
        harness.register(.update, hex("d"))
        harness.work("s1")
        return harness.tick().batches.first?.targets.map(\.hex) ?? []
    }

    @Test("supersede: a new update token replaces the env's previous one, so a corpse's 200 never counts")
    func supersede() {
        #expect(Self.updateTargets(.all) == [hex("d")])
        #expect(Self.updateTargets(.without(.supersede)) == [hex("d"), hex("c")])
    }

    /// A card on two envs; an update where the production token fails: what the card then holds.
    static func cardAfterPartialUpdate(_ guards: GuardSet) -> (working: Int?, events: [DecisionEvent], resent: Bool) {
        var harness = WatcherHarness(guards: guards)
        harness.register(.update, hex("c"))
        harness.register(.update, hex("d"), env: .production)
        harness.work("s1")
        harness.tickAndDeliver()
        harness.work("s2")
        let update = harness.tick().batches.first!
        let events = harness.answer(update, [hex("d"): (500, "InternalServerError")]).loggedEvents
        let resent = harness.tick().batches.first?.action == .update
        return (harness.card()?.contentState?.working, events, resent)
    }

    @Test("all-accept: an update short of every token leaves the card untouched, logs partial, re-sends")
    func allAccept() {
        let guarded = Self.cardAfterPartialUpdate(.all)
        #expect(guarded.working == 1)
        #expect(guarded.events == [.send, .send, .partial])
        #expect(guarded.resent)
        let unguarded = Self.cardAfterPartialUpdate(.without(.allAccept))
        #expect(unguarded.working == 2)
        #expect(!unguarded.resent)
    }

    @Test("all-accept: an end no token accepted keeps the card and logs none-accepted")
    func endNoneAccepted() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.finish("s1")
        let end = try #require(harness.tick().batches.first)
        #expect(harness.answer(end, [hex("c"): (500, nil)]).loggedEvents == [.send, .noneAccepted])
        #expect(harness.card() != nil)
        #expect(harness.tick().batches.map(\.action) == [.end])
    }

    static func startTokens(_ guards: GuardSet) -> [String] {
        var harness = WatcherHarness(guards: guards)
        harness.register(.pushToStart, hex("p"), env: .production)
        for character in "abcde" { harness.register(.pushToStart, hex(character)) }
        return harness.record()!.tokens.of(.pushToStart).map(\.hex)
    }

    @Test("push-to-start-cap: the newest 3 per env are kept, and sandbox churn never evicts production")
    func pushToStartCap() {
        #expect(Self.startTokens(.all) == [hex("e"), hex("d"), hex("c"), hex("p")])
        #expect(Self.startTokens(.without(.pushToStartCap)).count == 6)
    }

    static func actionAfterAppMadeCard(_ guards: GuardSet) -> PushAction? {
        var harness = WatcherHarness(guards: guards)
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        harness.register(.update, hex("c"))  // the app made the card and registered its token
        return harness.tick().batches.first?.action
    }

    @Test("adopt-on-register: an update-token registration adopts the app's card instead of starting a second")
    func adoptOnRegister() {
        #expect(Self.actionAfterAppMadeCard(.all) == .update)
        #expect(Self.actionAfterAppMadeCard(.without(.adoptOnRegister)) == .start)
    }

    @Test("adopt-on-register logs adopted and records it in the card history")
    func adoptionIsRecorded() {
        var harness = WatcherHarness()
        let effects = harness.register(.update, hex("c"))
        #expect(effects.loggedEvents == [.adopted])
        #expect(effects.logLines.first?.string(.token) == "cccccccc")
        #expect(effects.contains(.recordHistory(.started(.legacy, at: harness.now, origin: .adopted))))
        #expect(harness.card() == FleetCard(contentState: nil, startedAt: harness.now, origin: .adopted))
    }

    static func cardAfterEndedDuringLoad(_ guards: GuardSet) -> FleetCard? {
        var harness = WatcherHarness(guards: guards, loaded: false)
        harness.ended()
        let stored = DeviceRecord(
            tokens: [LiveActivityToken(kind: .update, env: .sandbox, hex: hex("c"), registeredAt: 1)],
            card: FleetCard(contentState: ContentState(working: 1), startedAt: 1, origin: .pushToStart))
        harness.watcher.handle(.loaded(devices: [.legacy: stored], since: [:], at: harness.now))
        return harness.card()
    }

    @Test("ended-report-wins: an /ended that lands while state loads wins over the stored card")
    func endedReportWins() {
        #expect(Self.cardAfterEndedDuringLoad(.all) == nil)
        #expect(Self.cardAfterEndedDuringLoad(.without(.endedReportWins)) != nil)
    }

    static func pushesOverQuietTicks(_ guards: GuardSet) -> Int {
        var harness = WatcherHarness.withLiveCard(guards: guards)
        return (0..<5).map { _ in harness.tickAndDeliver().batches.count }.reduce(0, +)
    }

    @Test("updated-at-excluded (via FleetCore): an unchanged fleet costs no pushes")
    func updatedAtExcluded() {
        #expect(Self.pushesOverQuietTicks(.all) == 0)
        #expect(Self.pushesOverQuietTicks(.without(.updatedAtExcluded)) == 5)
    }

    @Test("max-rows (via FleetCore): the watcher pushes at most 3 rows and folds the rest into more")
    func maxRows() throws {
        for guards in [GuardSet.all, .without(.maxRows)] {
            var harness = WatcherHarness(guards: guards)
            harness.register(.pushToStart, hex("a"))
            for sid in ["s1", "s2", "s3", "s4", "s5"] { harness.work(SessionID(sid)) }
            let start = try #require(harness.tick().batches.first)
            #expect(start.contentState.rows.count == (guards == .all ? 3 : 5))
            #expect(start.contentState.more == (guards == .all ? 2 : 0))
        }
    }

    @Test("Tokens answering 410 or 400 BadDeviceToken are pruned and logged; a 200 prunes nothing")
    func pruning() throws {
        // Every token gets the start, so every answer is seen (guard `newest-start-token` sends to `c` only).
        var harness = WatcherHarness(guards: .without(.newestStartToken))
        for character in "abc" { harness.register(.pushToStart, hex(character)) }
        harness.work("s1")
        let start = try #require(harness.tick().batches.first)
        let effects = harness.answer(start, [hex("a"): (410, "Unregistered"), hex("b"): (400, "BadDeviceToken")])
        #expect(harness.record()?.tokens.map(\.hex) == [hex("c")])
        #expect(effects.loggedEvents == [.send, .send, .tokenPruned, .send, .tokenPruned])  // newest first
        for line in effects.logLines {
            #expect(line.string(.token)?.count == 8)
            #expect(!line.jsonText.contains(hex("a")))
        }
    }

    @Test("A late answer to a push decided before the phone ended the card does not resurrect it")
    func lateAnswerAfterClientEnd() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.work("s2")
        let update = try #require(harness.tick().batches.first)
        harness.ended()
        harness.answer(update)
        #expect(harness.card() == nil)
    }
}
