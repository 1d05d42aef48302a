import ControlPlane
import FleetCore
import Testing

/// Guard `token-forgetting` (seed 003): a card's update token dies with the card, and a token never
/// refreshed ages out after 12 hours.
@Suite struct TokenForgettingTests {
    @Test("When the server's end is delivered, the card's update token is forgotten and logged")
    func forgottenAtEnd() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.finish("s1")
        let end = try #require(harness.tick().batches.first)
        let effects = harness.answer(end)
        #expect(harness.record()?.tokens.of(.update).isEmpty == true)
        let line = try #require(effects.logLines.first { $0.event == .tokenPruned })
        #expect(line.fields[.reason] == .string("card-ended"))
        #expect(line.fields[.token] == .string("cccccccc"))
    }

    @Test("When the phone reports ending its card, the card's update token is forgotten")
    func forgottenAtClientEnd() {
        var harness = WatcherHarness.withLiveCard()
        harness.ended()
        #expect(harness.record()?.tokens.of(.update).isEmpty == true)
    }

    /// A card ends; a new one is push-started and the phone never hands its token back (the idle phone).
    /// Where the new card's next update goes.
    static func updateAfterIdleRestart(_ guards: GuardSet) -> (targets: [String], noTokens: Bool) {
        var harness = WatcherHarness(guards: guards)
        harness.register(.pushToStart, hex("a"))
        harness.register(.update, hex("c"))
        harness.work("s1")
        harness.tickAndDeliver()
        harness.finish("s1")
        harness.tickAndDeliver()  // end delivered
        harness.work("s2")
        harness.tickAndDeliver()  // new card push-started; no token comes back
        harness.work("s3")
        let effects = harness.tick()
        return (effects.batches.first?.targets.map(\.hex) ?? [], effects.loggedEvents.contains(.noTokens))
    }

    @Test("token-forgetting: without it, the next card's updates go to the ended card's token and answer 200")
    func guardTokenForgetting() {
        let guarded = Self.updateAfterIdleRestart(.all)
        #expect(guarded.targets.isEmpty)
        #expect(guarded.noTokens)
        #expect(Self.updateAfterIdleRestart(.without(.tokenForgetting)).targets == [hex("c")])
    }

    /// A token with no card (adoption off, so no card's 8-hour end forgets it first): how many remain.
    static func updateTokensAt(age: Double, _ guards: GuardSet = .without(.adoptOnRegister)) -> Int {
        var harness = WatcherHarness(guards: guards)
        harness.register(.update, hex("c"))
        harness.register(.pushToStart, hex("a"))
        harness.tick(advancing: age)
        return harness.record()?.tokens.of(.update).count ?? 0
    }

    @Test("An update token never refreshed is kept until 12 hours and forgotten at 12 hours; push-to-start tokens never age")
    func agesOutAfter12Hours() {
        #expect(Self.updateTokensAt(age: 12 * 3600 - 1) == 1)
        #expect(Self.updateTokensAt(age: 12 * 3600) == 0)
        #expect(Self.updateTokensAt(age: 12 * 3600, .without(.adoptOnRegister, .tokenForgetting)) == 1)
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        let effects = harness.tick(advancing: 48 * 3600)
        #expect(harness.record()?.tokens.of(.pushToStart).count == 1)
        #expect(!effects.loggedEvents.contains(.tokenPruned))
    }

    @Test("An aged token is logged as token-pruned with reason aged, first 8 hex only")
    func agedTokenLogged() throws {
        var harness = WatcherHarness(guards: .without(.adoptOnRegister))
        harness.register(.update, hex("c"))
        let effects = harness.tick(advancing: 12 * 3600)
        let line = try #require(effects.logLines.first { $0.event == .tokenPruned })
        #expect(line.fields[.reason] == .string("aged"))
        #expect(!line.jsonText.contains(hex("c")))
        #expect(effects.contains { if case .saveDevice = $0 { true } else { false } })
    }
}
