import FleetCore
import Testing

@testable import Simulator

/// Issue 11 item 6: `--without supersede` seemed to help the idle phone because one shared random stream
/// turned its extra pushes into a different random future. These tests catch a guard "effect" that is
/// only noise: each kind of chance has its own keyed stream, so a run with a guard off may differ only in
/// what that guard causes.
@Suite struct CommonRandomNumbersTests {
    @Test("A stream's draws depend only on (seed, kind, key): drawing elsewhere first changes nothing")
    func streamsAreIndependent() {
        let streams = RandomStreams(seed: 9)
        var first = streams.generator(.wake, "0/3")
        var noise = streams.generator(.apns, "abcd#1")
        for _ in 0..<100 { _ = noise.next() }
        var second = streams.generator(.wake, "0/3")
        #expect(first.next() == second.next())
        var other = streams.generator(.wake, "0/4")
        var third = streams.generator(.wake, "0/3")
        #expect(other.next() != third.next())
        var otherSeed = RandomStreams(seed: 10).generator(.wake, "0/3")
        var fourth = streams.generator(.wake, "0/3")
        #expect(otherSeed.next() != fourth.next())
    }

    /// Supersede only stops updates to dead tokens: switched off, a corpse gets pushes that land nowhere.
    /// Nothing the phone sees may change (with one shared stream it did: 21.1 % -> 58.2 % on seed 1).
    @Test("Without supersede the idle phone gets more pushes and nothing else: the same cards, wakes and figures")
    func supersedeOffChangesOnlyPushes() throws {
        let idle = try #require(Scenario.named("idle-phone")).lasting(4 * 3600)
        // Token forgetting removes the same corpses; off in both runs, so supersede alone is compared. The
        // stale-date refreshes are off too: one to two tokens waits for the slower answer, a few ms later.
        let masking = try #require(GuardProof.all.first { $0.guard == .supersede }).masking.union([.staleDate])
        for seed: UInt64 in 1...3 {
            let on = SimulationReport.run([idle], seed: seed, ios: .ios17, without: masking, tracing: true).scenarios[0]
            let off = SimulationReport.run(
                [idle], seed: seed, ios: .ios17, without: masking.union([.supersede]), tracing: true)
                .scenarios[0]
            #expect(off.metrics.pushes > on.metrics.pushes, "seed \(seed)")
            #expect(off.metrics.correctFraction == on.metrics.correctFraction, "seed \(seed)")
            #expect(off.metrics.frozenSeconds == on.metrics.frozenSeconds, "seed \(seed)")
            #expect(phoneLines(on) == phoneLines(off), "seed \(seed)")
        }
    }

    /// A guard that decides nothing in a scenario leaves the run identical, byte for byte.
    @Test("A guard with no decision to make in a scenario leaves every figure and every trace line unchanged")
    func idleGuardChangesNothing() throws {
        let a = try #require(Scenario.named("A"))
        let on = SimulationReport.run([a], seed: 4, tracing: true).scenarios[0]
        let off = SimulationReport.run([a], seed: 4, without: [.pushToStartCap], tracing: true).scenarios[0]
        #expect(on == off)
    }

    /// What the phone did (cards appearing, launches, suspensions), without the servers' and APNs' lines.
    private func phoneLines(_ result: ScenarioResult) -> [String] {
        (result.trace ?? []).filter { $0.contains("s iphone: ") }
    }
}
