import APNs
import ControlPlane
import FleetCore
import Testing

/// Thousands of cards started together reach their stale-date refresh together. The watcher spreads such a
/// wave over ticks, so a change's push never waits behind thousands of routine refreshes, and holds none
/// past half the refresh lead, so no card reads stale because of it.
@Suite struct RefreshWaveTests {
    static let cap = Watcher.timedDecisionsPerTick
    static let phones = 2 * Watcher.timedDecisionsPerTick + 200

    /// `phones` devices with a live card each, all pushed at the same tick; every event a driver's staged step
    /// when `staged` (the boxes and timers staged, ``Watcher/beginStagedStep()``).
    static func fleetOfCards(staged: Bool = false) -> WatcherHarness {
        var harness = WatcherHarness()
        harness.stagesSteps = staged
        for index in 0..<phones {
            harness.register(.update, String(format: "%064x", index + 1), device: DeviceID("phone-\(index)"))
        }
        harness.work("s1")
        harness.tickAndDeliver()
        harness.tickAndDeliver()
        return harness
    }

    static func refreshed(_ effects: [WatcherEffect]) -> Set<DeviceID> {
        Set(effects.batches.filter { $0.action == .update }.map(\.deviceId))
    }

    @Test(
        "A wave of refreshes goes out at most the cap a tick, every card refreshed once before it reads stale",
        arguments: [false, true])
    func waveIsSpreadOverTicks(staged: Bool) {
        var harness = Self.fleetOfCards(staged: staged)
        let policy = harness.watcher.policy
        let staleAt = harness.card("phone-0")!.staleAt!
        let dueAt = staleAt - policy.staleRefreshLead
        harness.now = dueAt - 2 * WatcherHarness.step
        #expect(harness.tickAndDeliver().batches.isEmpty, "one tick before the refresh is due")
        var refreshedSoFar = Set<DeviceID>()
        var ticks = 0
        while refreshedSoFar.count < Self.phones, ticks < 10 {
            let effects = harness.tickAndDeliver(advancing: dueAt + Double(ticks) * 2 - harness.now)
            let refreshed = Self.refreshed(effects)
            #expect(refreshed.count <= Self.cap, "tick \(ticks): \(refreshed.count) refreshes")
            #expect(refreshedSoFar.isDisjoint(with: refreshed))
            refreshedSoFar.formUnion(refreshed)
            ticks += 1
        }
        #expect(ticks == 3, "\(Self.phones) refreshes at \(Self.cap) a tick")
        #expect(refreshedSoFar.count == Self.phones)
        #expect(harness.now < staleAt)
    }

    @Test("A change reaches its card in the first tick of a wave, whatever the wave's size")
    func changeIsNotHeldBehindTheWave() {
        var harness = Self.fleetOfCards()
        let dueAt = harness.card("phone-0")!.staleAt! - harness.watcher.policy.staleRefreshLead
        harness.now = dueAt - WatcherHarness.step
        harness.work("s2")
        let effects = harness.tickAndDeliver()
        // Every card shows the new session at once: changes are not capped, only timers are.
        #expect(effects.batches.count == Self.phones)
    }

    @Test("A timer held by the cap for half the refresh lead is taken whatever the cap", arguments: [false, true])
    func overdueTimersAreAllTaken(staged: Bool) {
        var harness = Self.fleetOfCards(staged: staged)
        let policy = harness.watcher.policy
        let dueAt = harness.card("phone-0")!.staleAt! - policy.staleRefreshLead
        // The first tick after the wave fell due comes late (a stalled instance): everything is overdue.
        let effects = harness.tickAndDeliver(advancing: dueAt + policy.staleRefreshLead / 2 - harness.now)
        #expect(Self.refreshed(effects).count == Self.phones)
    }
}
