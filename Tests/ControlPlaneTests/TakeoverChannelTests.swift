import APNs
import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Testing

/// Several instances on one database: a broadcast channel an instance retired (its deletion asked of APNs
/// or held) belongs to the device, so whoever drives the device deletes it, even after a kill -9.
@Suite struct TakeoverChannelTests {
    static let channel = DeviceChannel(
        id: try! BroadcastChannelID("cmV0aXJlZC1ieS10aGUta2lsbGVkLW9uZQ=="), env: .sandbox, deviceId: "phone", createdAt: 0)

    @Test("The instance taking a killed instance's device over deletes the channels it had retired")
    func takerDeletesRetiredChannels() async throws {
        let coordinator = TakeoverCoordinator(retired: [Self.channel])
        let world = try await CoordinatedWorld(coordinator, clock: ManualClock())
        defer { world.stop() }
        try await bounded("the device taken over being driven") {
            while await !world.service.watcherSnapshot.deviceIds.contains("phone") { await Task.yield() }
        }
        // The service's own run() ticks too (a started service is due for its first tick at once), and
        // either tick may be the one that asks the deletion, sent from a task of its own: wait for it, then
        // require exactly one (a second tick must not ask it again).
        await world.service.tick()
        try await bounded("the retired channel's deletion asked of APNs") {
            while world.gateway.channelRequests.isEmpty { await Task.yield() }
        }
        await world.service.tick()
        #expect(world.gateway.channelRequests == [.delete(Self.channel)])
    }

    @Test("A device given up takes its retired channels with it: the instance that gave it up asks no deletion")
    func releasedDeviceLeavesItsRetiredChannels() {
        var watcher = Watcher()
        let token = LiveActivityToken(kind: .update, env: .sandbox, hex: hexA, registeredAt: 0)
        _ = watcher.handle(.loaded(devices: ["phone": DeviceRecord(tokens: [token])], since: [:], retiredChannels: [Self.channel], at: 1))
        watcher.releaseDevices(["phone"])
        #expect(watcher.retiredChannels.isEmpty)
        let effects = watcher.handle(.ticked(FleetSnapshot(), at: 2))
        #expect(!effects.contains { if case .requestChannel = $0 { true } else { false } })
    }
}

/// A coordinator whose first round gains the owner's "phone", stored with the channels it had retired.
final class TakeoverCoordinator: QuietCoordinator, @unchecked Sendable {
    // @unchecked: its one stored property is an immutable array of values.
    let retired: [DeviceChannel]

    init(retired: [DeviceChannel]) { self.retired = retired }

    override func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        let phone = LeasedDevice(.owner, "phone")
        return LeaseRound(held: [phone], gained: [phone], liveInstances: 1, fairShare: 1)
    }

    override func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices {
        let token = LiveActivityToken(kind: .update, env: .sandbox, hex: hexA, registeredAt: 0)
        return TakenOverDevices(records: ["phone": DeviceRecord(tokens: [token])], retiredChannels: retired)
    }
}
