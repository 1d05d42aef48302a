import APNs
import ControlPlane
import FleetCore
import Testing

@Suite struct RetryBackoffTests {
    let rule = RetryBackoff(base: 2, maximum: 300, jitterSeed: 7)

    @Test("The wait doubles per failure in a row, with equal jitter, up to the maximum")
    func exponentialWithJitter() {
        #expect(rule.delay(failures: 1, remedy: .backOff, jitter: 0) == 1)
        #expect(rule.delay(failures: 1, remedy: .backOff, jitter: 0.999_999) < 2)
        #expect(rule.delay(failures: 3, remedy: .backOff, jitter: 0) == 4)
        #expect(rule.delay(failures: 3, remedy: .backOff, jitter: 1) == 8)
        #expect(rule.delay(failures: 40, remedy: .backOff, jitter: 1) == 300)
    }

    @Test("A retry-after hint is a floor; a configuration error waits the maximum at once")
    func hintsAndConfiguration() {
        #expect(rule.delay(failures: 1, remedy: .backOff, retryAfter: 30, jitter: 0) == 30)
        #expect(rule.delay(failures: 1, remedy: .fixConfiguration, jitter: 0) == 300)
        #expect(rule.delay(failures: 1, remedy: .fixRequest, jitter: 0) == 300)
        #expect(rule.delay(failures: 1, remedy: .refreshProviderToken, jitter: 0) == 1)
    }

    @Test("Jitter is reproducible from the seed, in [0, 1), and differs between tokens")
    func jitterSource() {
        let a = rule.jitter(for: hex("a"), failures: 1)
        #expect(a == RetryBackoff(jitterSeed: 7).jitter(for: hex("a"), failures: 1))
        #expect((0..<1).contains(a))
        #expect(a != rule.jitter(for: hex("b"), failures: 1))
        #expect(a != RetryBackoff(jitterSeed: 8).jitter(for: hex("a"), failures: 1))
    }
}

@Suite struct TypedOutcomeTests {
    /// A live card on update token `c` whose next update APNs answers with `status`/`reason`; returns
    /// the harness after that answer, and the refused batch.
    /// The priority budget is off: its coalescing interval would hide the back-off's shorter waits.
    static func refusedUpdate(_ status: Int, _ reason: String?, guards: GuardSet = .without(.priorityBudget)) throws
        -> WatcherHarness
    {
        var harness = WatcherHarness.withLiveCard(guards: guards)
        harness.work("s2")
        let batch = try #require(harness.tick().batches.first)
        harness.answer(batch, [hex("c"): (status, reason)])
        return harness
    }

    @Test(
        "429, 5xx, transport failures and ExpiredProviderToken back the token off: no re-send every tick",
        arguments: [
            (429, "TooManyRequests"), (500, "InternalServerError"), (503, "ServiceUnavailable"), (0, "connection lost"),
            (403, "ExpiredProviderToken"),
        ] as [(Int, String)])
    func backsOff(status: Int, reason: String) throws {
        var harness = try Self.refusedUpdate(status, reason)
        #expect(harness.record()?.tokens.map(\.hex) == [hex("c")], "not pruned")
        #expect(harness.tick(advancing: 0.5).batches.isEmpty, "still backing off half a second later")
        // The first wait is 1-2 s (base 2 s, equal jitter): within 2 s the token is tried again.
        let again = harness.tick(advancing: 1.6).batches
        #expect(again.map(\.action) == [.update])
        #expect(again.first?.targets.map(\.hex) == [hex("c")])
    }

    @Test("Failures in a row wait longer each time; an acceptance clears the back-off")
    func growsAndClears() throws {
        var harness = try Self.refusedUpdate(503, "ServiceUnavailable")
        var batch = try #require(harness.tick(advancing: 2).batches.first)
        harness.answer(batch, [hex("c"): (503, "ServiceUnavailable")])
        #expect(harness.tick(advancing: 1.9).batches.isEmpty, "the second wait is 2-4 s")
        batch = try #require(harness.tick(advancing: 2.2).batches.first)
        harness.answer(batch)
        harness.work("s3")
        #expect(harness.tick(advancing: WatcherHarness.step).batches.count == 1, "accepted: no back-off left")
    }

    @Test("A configuration error (403 BadTopic) waits the maximum, not a tick")
    func configurationWaitsLong() throws {
        var harness = try Self.refusedUpdate(403, "BadTopic")
        #expect(harness.tick(advancing: 299).batches.isEmpty)
        #expect(harness.tick(advancing: 2).batches.count == 1)
    }

    @Test("An update waits while one of its tokens backs off, so no card misses it; a start goes to the ready ones")
    func updateWaitsForEveryToken() throws {
        var harness = WatcherHarness.withLiveCard(guards: .without(.priorityBudget))
        harness.register(.update, hex("p"), env: .production)
        harness.work("s2")
        let batch = try #require(harness.tick().batches.first)
        #expect(batch.targets.count == 2)
        harness.answer(batch, [hex("p"): (503, "ServiceUnavailable")])
        #expect(harness.tick(advancing: 0.5).batches.isEmpty)
        #expect(harness.tick(advancing: 1.6).batches.first?.targets.count == 2)
    }

    @Test("410 Unregistered, 410 ExpiredToken and 400 BadDeviceToken prune the token", arguments: [
        (410, "Unregistered"), (410, "ExpiredToken"), (400, "BadDeviceToken"),
    ] as [(Int, String)])
    func prunes(status: Int, reason: String) throws {
        let harness = try Self.refusedUpdate(status, reason)
        #expect(harness.record()?.tokens.of(.update).isEmpty == true)
    }

    @Test("The gateway hands the watcher APNs' typed remedy, not just a status and a string")
    func gatewayCarriesRemedy() async {
        let sender = RecordingPushSender([
            hexB: (429, "TooManyRequests"), hex("c"): (403, "ExpiredProviderToken"), hex("d"): (410, "ExpiredToken"),
        ])
        let gateway = APNsPushGateway(sender: sender, bundleID: BundleID("com.example.lfg"))
        let results = await gateway.deliver(APNsPushGatewayTests.batch(.update, targets: [hexA, hexB, hex("c"), hex("d")]))
        #expect(results.map(\.remedy) == [nil, .backOff, .refreshProviderToken, .dropToken])
        #expect(results.map(\.isTokenDead) == [false, false, false, true])
    }
}
