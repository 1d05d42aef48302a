import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Synchronization
import Testing

/// Several instances on one database: the state endpoint and `GET /api/devices/{id}` list the devices other
/// instances drive as stored, and say so when the store cannot be read or the listing is cut at its bound.
@Suite struct DevicesElsewhereTests {
    static let token = LiveActivityToken(kind: .update, env: .sandbox, hex: hexA, registeredAt: 0)

    /// A world driving "phone" (taken over at its first lease round), whose store reads `reads` answers.
    static func world(_ coordinator: ListingCoordinator) async throws -> CoordinatedWorld {
        let world = try await CoordinatedWorld(coordinator, clock: ManualClock())
        coordinator.service.withLock { $0 = world.service }
        try await bounded("the device taken over being driven") {
            while await !world.service.watcherSnapshot.deviceIds.contains("phone") { await Task.yield() }
        }
        return world
    }

    @Test("A store that cannot be read: the state lists this instance's devices and says why the others are missing; a device read from it is a 500")
    func unreadableStoreIsSaid() async throws {
        let coordinator = ListingCoordinator { _, _ throws(StoreError) in
            throw StoreError(operation: "read devices", message: "connection lost")
        }
        let world = try await Self.world(coordinator)
        defer { world.stop() }
        let state = await world.service.liveActivityState()
        #expect(state.devices.map(\.deviceId) == ["phone"])
        #expect(state.devices.map(\.drivenBy) == [InstanceID("test")])
        #expect(state.devicesElsewhereError == "store read devices failed: connection lost")
        #expect(state.devicesNotListed == 0)
        // The driven device answers from memory; another must be read, and the read fails loudly.
        #expect(try await world.service.device("phone").drivenBy == InstanceID("test"))
        await #expect(throws: ServiceError.store(StoreError(operation: "read devices", message: "connection lost"))) {
            try await world.service.device("tablet")
        }
    }

    @Test("Devices past the listing's bound are counted as not listed; the read asks for everything but the driven devices")
    func boundIsCounted() async throws {
        let coordinator = ListingCoordinator { selection, limit throws(StoreError) in
            #expect(selection == .allBut(["phone"]))
            #expect(limit == ControlPlaneService.devicesReadElsewhereLimit)
            return StoredDevices(
                records: ["a-watch": DeviceRecord(tokens: [Self.token])], drivers: ["a-watch": InstanceID("other")], notRead: 5)
        }
        let world = try await Self.world(coordinator)
        defer { world.stop() }
        let state = await world.service.liveActivityState()
        #expect(state.devices.map(\.deviceId) == ["a-watch", "phone"])
        #expect(state.devices.map(\.drivenBy) == [InstanceID("other"), InstanceID("test")])
        #expect(state.devicesNotListed == 5)
        #expect(state.devicesElsewhereError == nil)
    }

    @Test("The token list shows the devices others drive with their tokens and drivers, and says why when they cannot be read")
    func tokenListCoversTheWholeAccount() async throws {
        let coordinator = ListingCoordinator { _, _ throws(StoreError) in
            StoredDevices(
                records: ["a-watch": DeviceRecord(tokens: [Self.token])], drivers: ["a-watch": InstanceID("other")], notRead: 2)
        }
        let world = try await Self.world(coordinator)
        defer { world.stop() }
        let list = await world.service.tokenList()
        #expect(list.tokens.map(\.deviceId) == ["a-watch", "phone"])
        #expect(list.tokens.map(\.drivenBy) == [InstanceID("other"), InstanceID("test")])
        #expect(list.tokens.map(\.token) == [Self.token.shortHex, Self.token.shortHex])
        #expect(list.devicesNotListed == 2)
        #expect(list.devicesElsewhereError == nil)

        coordinator.answer = { _, _ throws(StoreError) in throw StoreError(operation: "read devices", message: "connection lost") }
        let unread = await world.service.tokenList()
        #expect(unread.tokens.map(\.deviceId) == ["phone"])
        #expect(unread.devicesElsewhereError == "store read devices failed: connection lost")
    }

    @Test("A device this instance stops driving while the store is read is read once more, not left out")
    func deviceLostDuringTheReadIsReadAgain() async throws {
        let reads = Mutex(0)
        let coordinator = ListingCoordinator { _, _ throws(StoreError) in StoredDevices() }
        coordinator.answer = { [coordinator] selection, _ throws(StoreError) in
            let read = reads.withLock { count in
                count += 1
                return count
            }
            if read == 1 {
                // The lease moves to another instance while the first read is in flight.
                #expect(selection == .allBut(["phone"]))
                await coordinator.service.withLock { $0 }!.leaseShareChanged(held: [], gained: [], round: 1_000)
                return StoredDevices()
            }
            #expect(selection == .among(["phone"]))
            return StoredDevices(records: ["phone": DeviceRecord(tokens: [Self.token])], drivers: ["phone": InstanceID("other")])
        }
        let world = try await Self.world(coordinator)
        defer { world.stop() }
        let state = await world.service.liveActivityState()
        #expect(state.devices.map(\.deviceId) == ["phone"])
        #expect(state.devices.map(\.drivenBy) == [InstanceID("other")])
        #expect(reads.withLock { $0 } == 2)
    }
}

/// A coordinator driving the owner's "phone" (gained at the first round) whose device reads `answer` scripts.
final class ListingCoordinator: QuietCoordinator, @unchecked Sendable {
    // @unchecked: `answer` is set before the world starts reading, `service` is behind a Mutex.
    typealias Answer = @Sendable (DeviceSelection, Int) async throws(StoreError) -> StoredDevices
    var answer: Answer
    let service = Mutex<ControlPlaneService?>(nil)

    init(_ answer: @escaping Answer) { self.answer = answer }

    override func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        let phone = LeasedDevice(.owner, "phone")
        return LeaseRound(held: [phone], gained: [phone], liveInstances: 2, fairShare: 1)
    }

    override func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices {
        TakenOverDevices(records: ["phone": DeviceRecord(tokens: [DevicesElsewhereTests.token])])
    }

    override func readDevices(account: AccountID, _ selection: DeviceSelection, limit: Int) async throws(StoreError)
        -> StoredDevices
    {
        try await answer(selection, limit)
    }
}
