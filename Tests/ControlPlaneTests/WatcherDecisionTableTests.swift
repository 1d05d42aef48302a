import ControlPlane
import FleetCore
import Testing

@Suite struct WatcherDecisionTableTests {
    @Test("No card and nothing active does nothing")
    func noCardNothingActive() {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        #expect(harness.tick().isEmpty)
    }

    @Test("No card and something active push-starts to every push-to-start token with a decide line")
    func startsWhenActive() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.register(.pushToStart, hex("b"), env: .production)
        harness.work("s1", title: "Build")
        let effects = harness.tick()
        #expect(effects.loggedEvents == [.decide])
        let batch = try #require(effects.batches.first)
        #expect(effects.withoutSince.count == 2)
        #expect(batch.action == .start)
        #expect(Set(batch.targets.map(\.hex)) == [hex("a"), hex("b")])
        #expect(batch.contentState.working == 1)
        #expect(batch.contentState.rows.map(\.sid) == ["s1"])
        let decide = try #require(effects.logLines.first)
        #expect(decide.action == .start)
        #expect(decide.integer(.tokens) == 2)
        #expect(decide.strings(.rows) == ["s1:working"])
    }

    @Test("A start counts as delivered when one token accepts")
    func startNeedsOneAccept() throws {
        // Several targets for one start (the older token is kept out by guard `newest-start-token`).
        var harness = WatcherHarness(guards: .without(.newestStartToken))
        harness.register(.pushToStart, hex("a"))
        harness.register(.pushToStart, hex("b"))
        harness.work("s1")
        let batch = try #require(harness.tick().batches.first)
        let effects = harness.answer(batch, [hex("a"): (500, "InternalServerError")])
        #expect(harness.card()?.origin == .pushToStart)
        #expect(harness.card()?.contentState?.working == 1)
        #expect(effects.loggedEvents == [.send, .send])
        #expect(effects.contains(.recordHistory(.started(.legacy, at: harness.now, origin: .pushToStart))))
    }

    @Test("A card with unchanged content gets no push; changed content gets an update to the update token")
    func updateOnlyOnChange() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        harness.tickAndDeliver()
        harness.register(.update, hex("c"))
        // Adopted with no content state: the next tick pushes current content.
        let adoptedPush = try #require(harness.tick().batches.first)
        #expect(adoptedPush.action == .update)
        harness.answer(adoptedPush)
        #expect(harness.tick(advancing: 60).withoutSince.isEmpty)
        harness.ask("s2")
        let update = try #require(harness.tick().batches.first)
        #expect(update.action == .update)
        #expect(update.targets.map(\.hex) == [hex("c")])
        #expect(update.contentState.needsInput == 1)
        #expect(update.contentState.rows.map(\.sid) == ["s2", "s1"])
    }

    @Test("A trustworthy zero ends the card with a zeroed state and a dismissal date")
    func endsOnTrustworthyZero() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.finish("s1")
        let effects = harness.tick()
        let end = try #require(effects.batches.first)
        #expect(end.action == .end)
        #expect(end.contentState == .zeroed(at: harness.now))
        #expect(end.dismissalDate == harness.now)
        let answered = harness.answer(end)
        #expect(harness.card() == nil)
        #expect(answered.contains(.recordHistory(.ended(.legacy, at: harness.now, reason: .serverEnded))))
        #expect(harness.tick().isEmpty)
    }

    @Test("A known-down host makes the count unknown: the card is neither ended nor zeroed")
    func unknownCountNeverEnds() {
        var harness = WatcherHarness()
        harness.register(.update, hex("c"))
        harness.work("s1", host: "mac")
        harness.fleet.heartbeat("mac", HostHeartbeat(lastSeen: harness.now, ttlSeconds: 30))
        harness.tickAndDeliver()
        let shown = harness.card()?.contentState
        #expect(shown?.working == 1)
        #expect(harness.tick(advancing: 31).withoutSince.isEmpty)
        #expect(harness.card()?.contentState == shown)
        // The host comes back and its session is done: now zero is trustworthy.
        harness.finish("s1")
        harness.fleet.heartbeat("mac", HostHeartbeat(lastSeen: harness.now + 2, ttlSeconds: 30))
        #expect(harness.tick().batches.map(\.action) == [.end])
    }

    @Test("A host exactly at its TTL is still up; one second past it is down")
    func heartbeatEdges() {
        let heartbeat = HostHeartbeat(lastSeen: 100, ttlSeconds: 30)
        #expect(!heartbeat.isDown(at: 130))
        #expect(heartbeat.isDown(at: 131))
    }

    @Test("The since baseline of a session is sticky across ticks and restarts when its state changes")
    func stickySince() throws {
        var harness = WatcherHarness.withLiveCard()
        let started = harness.now
        harness.work("s2")
        let update = try #require(harness.tick(advancing: 30).batches.first)
        #expect(update.contentState.rows.first { $0.sid == "s1" }?.since == started)
        harness.answer(update)
        harness.ask("s1")
        let asked = try #require(harness.tick().batches.first)
        #expect(asked.contentState.rows.first { $0.sid == "s1" }?.since == harness.now)
        #expect(harness.watcher.since["s2"]?.since == started + 30)
    }

    @Test("A tick while a push is in flight sends nothing more for that card")
    func pendingPushBlocksResend() {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        #expect(harness.tick().batches.count == 1)
        #expect(harness.tick().isEmpty)
    }

    @Test("No tokens for a due action logs the decision (decide, tokens 0) and no-tokens, once, not every tick")
    func noTokensLoggedOnce() throws {
        var harness = WatcherHarness()
        harness.watcher.handle(.deviceReported(.legacy, DeviceProfile(env: .sandbox), at: harness.now))
        harness.work("s1")
        let effects = harness.tick()
        #expect(effects.loggedEvents == [.decide, .noTokens])
        let decide = try #require(effects.logLines.first)
        #expect(decide.action == .start)
        #expect(decide.integer(.tokens) == 0)
        #expect(decide.strings(.rows) == ["s1:working"])
        #expect(effects.logLines.last?.action == .start)
        #expect(harness.tick().isEmpty)
        harness.register(.pushToStart, hex("a"))
        #expect(harness.tick().batches.count == 1)
    }

    @Test("Ticks before the stored state loads are ignored, so a restart never push-starts a duplicate")
    func noTicksBeforeLoad() {
        var harness = WatcherHarness(loaded: false)
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        #expect(harness.tick().isEmpty)
    }
}
