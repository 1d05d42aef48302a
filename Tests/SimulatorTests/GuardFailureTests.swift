import FleetCore
import Testing

@testable import Simulator

/// Each guard of the seed's table, switched off: its failure comes back; switched on: it does not.
@Suite struct GuardFailureTests {
    @Test("Without end-gate-trust a background launch's empty store kills the push-started card within seconds")
    func endGateTrust() throws {
        let (on, off) = try proof(.endGateTrust)
        #expect(on.details.pushStartedCardsKilled == 0)
        #expect(off.details.pushStartedCardsKilled >= 1)
        // What the kill costs depends on the wakes that follow: judged paired, over seeds 1-5.
        let onMean = try meanCorrect("C", seeds: 1...5)
        let offMean = try meanCorrect("C", seeds: 1...5, without: .endGateTrust)
        #expect(offMean < onMean - 0.1)
    }

    @Test("Without end-gate-trust a host going down ends the card instead of leaving it untouched")
    func endGateTrustHostDown() throws {
        let on = try run("E")
        let off = try run("E", without: .endGateTrust)
        #expect(on.metrics.clientEnded == 0)
        #expect(on.metrics.correctFraction > 0.95)
        #expect(off.metrics.clientEnded >= 1)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.1)
    }

    @Test("Without start-veto the phone and the server loop: end, push-start, end again")
    func startVeto() throws {
        let (on, off) = try proof(.startVeto)
        #expect(on.metrics.startEndLoops == 0)
        // iOS's priority-10 budget refuses starts past about 15 an hour, which caps the loop: still a loop.
        #expect(off.metrics.startEndLoops >= 4)
        #expect(off.metrics.starts >= on.metrics.starts + 4)
    }

    @Test("Without supersede every update also goes to every dead token of earlier cards")
    func supersede() throws {
        let (on, off) = try proof(.supersede)
        #expect(off.metrics.pushes >= 3 * on.metrics.pushes)
        #expect(on.metrics.correctFraction > 0.95)
    }

    @Test("Without all-accept a corpse's 200 counts as delivered and the card stays stale")
    func allAccept() throws {
        let (on, off) = try proof(.allAccept)
        #expect(on.metrics.timeToCorrectP99 < 10)
        #expect(off.metrics.timeToCorrectP99 > 30)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.05)
    }

    @Test("Without push-to-start-cap every start blasts every rotted push-to-start token")
    func pushToStartCap() throws {
        let (on, off) = try proof(.pushToStartCap)
        // Two starts, sixteen rotted dev-build tokens: 17 tokens blasted per start instead of 4.
        #expect(off.metrics.pushes - on.metrics.pushes >= 20)
    }

    @Test("Without dedupe two cards stay on the lock screen and the visible older one goes stale")
    func dedupe() throws {
        let (on, off) = try proof(.dedupe)
        // With dedupe the second card lives only for the instant the app needs to see it arrive.
        #expect(on.metrics.multiCardSeconds < 1)
        #expect(off.metrics.maxVisibleCards == 2)
        #expect(off.metrics.multiCardSeconds > 300)
        #expect(off.metrics.correctFraction < 0.5)
    }

    @Test("Without adopt-on-register the server never takes over the app's card: nothing updates it once the app sleeps")
    func adoptOnRegister() throws {
        let (on, off) = try proof(.adoptOnRegister)
        #expect(on.metrics.correctFraction > 0.95)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.3)
        #expect(off.metrics.timeToCorrectP50 > 60)
    }

    @Test("Without updated-at-excluded every tick becomes a push")
    func updatedAtExcluded() throws {
        let (on, off) = try proof(.updatedAtExcluded)
        let ticks = Int(off.metrics.simulatedSeconds / SimulationEnvironment().tick)
        #expect(on.metrics.pushes < 100)
        #expect(off.metrics.pushes > ticks / 2)
    }

    @Test("Without default-host-only each configured host push-starts its own card")
    func defaultHostOnly() throws {
        let (on, off) = try proof(.defaultHostOnly)
        #expect(on.metrics.maxVisibleCards == 1)
        #expect(off.metrics.maxVisibleCards == 2)
        #expect(off.metrics.multiCardSeconds > 60)
    }

    @Test("Without push-port-gate a scratch server on a spare port push-starts a card of its own")
    func pushPortGate() throws {
        let (on, off) = try proof(.pushPortGate)
        #expect(off.metrics.starts > on.metrics.starts)
        #expect(off.metrics.pushes > on.metrics.pushes)
    }

    @Test("Without max-rows the card is taller than the lock screen and the header is clipped")
    func maxRows() throws {
        let (on, off) = try proof(.maxRows)
        #expect(on.details.overheightSeconds == 0)
        #expect(off.details.overheightSeconds > 60)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.1)
    }

    @Test("Without ended-report-wins an /ended landing mid-load is overwritten and the dead card resurrected")
    func endedReportWins() throws {
        let (on, off) = try proof(.endedReportWins)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.2)
        #expect(off.metrics.timeToCorrectP99 > on.metrics.timeToCorrectP99 + 100)
    }

    @Test("Without broadcast-channels the idle iOS 18 phone is back in token mode: frozen cards, wrong most of the time")
    func broadcastChannels() throws {
        let (on, off) = try proof(.broadcastChannels)
        #expect(on.metrics.frozenSeconds == 0)
        #expect(off.metrics.frozenSeconds > 3600)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.3)
    }

    @Test("Without stale-date a card nobody can reach shows yesterday's count as if live")
    func staleDate() throws {
        let (on, off) = try proof(.staleDate)
        #expect(off.metrics.lyingSeconds > 10 * on.metrics.lyingSeconds)
        #expect(on.metrics.honestFraction > off.metrics.honestFraction + 0.3)
    }

    @Test("Without renewal iOS ends the card at 8 hours and the lock screen has no card for hours")
    func renewal() throws {
        let (on, off) = try proof(.renewal)
        #expect(on.details.timeliness.longestCardlessActiveSeconds < 10)
        #expect(off.details.timeliness.longestCardlessActiveSeconds > 3600)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.3)
    }

    @Test("Without token-forgetting every update goes to the token of a card that ended long ago")
    func tokenForgetting() throws {
        let (on, off) = try proof(.tokenForgetting)
        #expect(off.metrics.pushes > on.metrics.pushes + 20)
    }

    /// Each store keys sessions by sid (the server's `FleetSnapshot`, each listing in the app's
    /// `SessionModel`); the duplicate comes from the app merging two servers' listings (scenario C: the
    /// hosts report to both), and only the reducer's sid-dedupe counts it once.
    @Test("Without sid-dedupe an app merging two servers that both know a session counts it twice")
    func sidDedupe() throws {
        let (on, off) = try proof(.sidDedupe)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.1)
        #expect(off.metrics.lyingSeconds > on.metrics.lyingSeconds + 60)
    }

    @Test("Without priority-budget a flapping agent spends hundreds of priority-10 pushes an hour")
    func priorityBudget() throws {
        let (on, off) = try proof(.priorityBudget)
        #expect(on.details.timeliness.immediatePushesWorstHour <= SimulationEnvironment().immediateBudgetPerHour)
        #expect(off.details.timeliness.immediatePushesWorstHour > 100)
    }

    /// multi-device: an app opened after a sleep dated the sessions it missed from its wake (more than a
    /// minute off the real change), or sorted one of them onto the card and rewrote the server's right one.
    @Test("Without server-since a woken app dates rows from its wake: since-drift and a rewritten card")
    func serverSince() throws {
        let (on, off) = try proof(.serverSince)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.01)
        #expect(on.details.bound.incorrectByCause["since-drift"] == nil)
        #expect((off.details.bound.incorrectByCause["since-drift"] ?? 0) > 30)
    }

    /// offline-start: the server holds the push-to-start token of each launch; a start sent to the old one
    /// too, answered last, is the push APNs keeps for the offline phone, and it starts nothing.
    @Test("Without newest-start-token a start to a replaced token takes the real start's place in APNs' store")
    func newestStartToken() throws {
        let (on, off) = try proof(.newestStartToken)
        #expect(on.details.bound.incorrectByCause["start-lost"] == nil)
        #expect((off.details.bound.incorrectByCause["start-lost"] ?? 0) > 300)
        #expect(off.metrics.correctFraction < on.metrics.correctFraction - 0.05)
    }

    /// Runs the guard's proof scenario (``GuardProof``) with every guard on, then without `guard`.
    private func proof(_ guard: Guard) throws -> (on: ScenarioResult, off: ScenarioResult) {
        let proof = try #require(GuardProof.all.first { $0.guard == `guard` })
        return proof.run(try #require(Scenario.named(proof.scenario)), seed: 1)
    }

    private func meanCorrect(_ name: String, seeds: ClosedRange<UInt64>, without: Guard...) throws -> Double {
        let scenario = try #require(Scenario.named(name))
        let fractions = seeds.map { seed in
            SimulationReport.run([scenario], seed: seed, ios: .ios17, without: Set(without)).scenarios[0].metrics.correctFraction
        }
        return fractions.reduce(0, +) / Double(fractions.count)
    }

    private func run(_ name: String, without: Guard...) throws -> ScenarioResult {
        try run(name, without: Set(without))
    }

    private func run(_ name: String, without: Set<Guard>) throws -> ScenarioResult {
        let scenario = try #require(Scenario.named(name))
        let report = SimulationReport.run([scenario], seed: 1, ios: .ios17, without: without)
        return try #require(report.scenarios.first)
    }
}

@Suite struct GuardProofTests {
    @Test("Every guard of the contract has a proof, in the contract's order")
    func everyGuardProven() {
        #expect(GuardProof.all.map(\.guard) == Guard.allCases)
        #expect(GuardProof.all.allSatisfy { Scenario.named($0.scenario) != nil && !$0.figures.isEmpty })
    }
}
