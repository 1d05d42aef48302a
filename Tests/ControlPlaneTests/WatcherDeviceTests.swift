import ControlPlane
import FleetCore
import Testing

@Suite struct WatcherDeviceTests {
    @Test("Each device has its own card, tokens and hidden folders")
    func perDeviceBoxes() throws {
        var harness = WatcherHarness()
        harness.watcher.handle(.deviceReported("work", DeviceProfile(env: .sandbox, hiddenDirs: ["/secret"]), at: 1))
        harness.register(.update, hex("a"), device: "home")
        harness.register(.update, hex("b"), device: "work")
        harness.work("s1", cwd: "/code")
        harness.work("s2", cwd: "/secret/x")
        let effects = harness.tick()
        let byDevice = Dictionary(uniqueKeysWithValues: effects.batches.map { ($0.deviceId, $0) })
        #expect(effects.batches.map(\.deviceId) == ["home", "work"])
        #expect(byDevice["home"]?.contentState.working == 2)
        #expect(byDevice["work"]?.contentState.working == 1)
        #expect(byDevice["work"]?.targets.map(\.hex) == [hex("b")])
        // One device's /ended leaves the other's card alone.
        for batch in effects.batches { harness.answer(batch) }
        harness.ended(device: "home")
        #expect(harness.card("home") == nil)
        #expect(harness.card("work") != nil)
    }

    @Test("Registrations without a device id belong to the legacy device 'default'")
    func legacyDevice() {
        #expect(DeviceID.legacy == "default")
    }

    @Test("A restarted watcher loaded from the store sends no duplicate start and keeps every since")
    func restartPersistence() async throws {
        let store = InMemoryStore()
        var harness = WatcherHarness()
        var writes: [StoreWrite] = []
        func keep(_ effects: [WatcherEffect]) {
            for effect in effects { writes += effect.storeWrites }
        }
        keep(harness.register(.pushToStart, hex("a")))
        harness.work("s1")
        let tick = harness.tick()
        keep(tick)
        keep(harness.answer(try #require(tick.batches.first)))
        try await store.commit(writes)
        let started = try #require(harness.watcher.since["s1"])

        let contents = try await store.load()
        var restarted = Watcher()
        restarted.handle(.loaded(devices: contents.devices, since: contents.since, at: harness.now))
        let afterRestart = restarted.handle(.ticked(harness.fleet, at: harness.now + 5))
        #expect(afterRestart.batches.isEmpty)
        #expect(restarted.since["s1"] == started)
        #expect(restarted.boxes[.legacy]?.record.card?.origin == .pushToStart)
        let history = try await store.history(deviceId: nil, limit: 10)
        #expect(history.map(\.origin) == [.pushToStart])
    }
}
