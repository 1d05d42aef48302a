import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Synchronization
import Testing

/// Several instances on one database (contract 8.4): an instance keeps renewing its leases whatever else
/// it is busy with.
@Suite struct LeaseRenewalTests {
    @Test("Lease rounds go on while the devices a round gained are still loading (a slow takeover keeps its leases)")
    func renewalDoesNotWaitForTakeover() async throws {
        let clock = ManualClock()
        let coordinator = SlowLoadCoordinator()
        let world = try await CoordinatedWorld(coordinator, clock: clock)
        defer { world.stop() }
        let service = world.service

        #expect(try await coordinator.rounds.next("the first lease round") == 1)
        try await coordinator.loadsStarted.next("loading the device the first round gained")
        // The load hangs (10,000 devices on a slow database); the next renewal is due regardless. Before
        // the fix the round itself waited for the load, so no renewal was ever due again (and with a load
        // longer than the lease time, the instance lost every lease while taking devices over).
        try await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(1)), within: .seconds(10))
        clock.advance(by: .seconds(1))
        #expect(try await coordinator.rounds.next("the second lease round while the load still runs") == 2)

        coordinator.finishLoads()
        try await bounded("the device taken over being driven") {
            while await !service.watcherSnapshot.deviceIds.contains("phone") { await Task.yield() }
        }
    }
}

/// A coordinator in memory: every round holds the owner's "phone" (gained in the first); loading it
/// waits until the test calls ``finishLoads()``.
final class SlowLoadCoordinator: QuietCoordinator, @unchecked Sendable {
    // @unchecked: every stored property is Sendable (inboxes, a Mutex).
    let rounds = Inbox<Int>()
    let loadsStarted = Inbox<Void>()
    private let loadsFinished = Inbox<Void>()
    private let roundCount = Mutex(0)

    func finishLoads() { loadsFinished.finish() }

    override func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        let round = roundCount.withLock { count in
            count += 1
            return count
        }
        rounds.yield(round)
        let phone = LeasedDevice(.owner, "phone")
        return LeaseRound(held: [phone], gained: round == 1 ? [phone] : [], liveInstances: 1, fairShare: 1)
    }

    override func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices {
        loadsStarted.yield(())
        // Returns when finished (nil), or fails the load after the limit: either way the test decides.
        do { _ = try await loadsFinished.next("the test finishing the load") } catch {
            throw StoreError(operation: "load devices", message: "\(error)")
        }
        let token = LiveActivityToken(kind: .update, env: .sandbox, hex: hexA, registeredAt: 0)
        return TakenOverDevices(records: ids.reduce(into: [:]) { records, id in records[id] = DeviceRecord(tokens: [token]) })
    }
}
