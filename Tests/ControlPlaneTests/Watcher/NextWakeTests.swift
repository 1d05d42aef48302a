import APNs
import ControlPlane
import FleetCore
import FleetCoreTesting
import Testing

/// ``Watcher/nextWake(_:now:)`` lets a driver skip ticks: every tick it would skip must be one that returns
/// no effect and changes nothing. On random event streams (phones, sessions, hosts going down, APNs
/// refusing, the clock moving by milliseconds or hours), each tick before the wake time is checked to be
/// a no-op; a forgotten timer would show as a skipped tick with effects.
@Suite("The watcher says when it next needs a tick")
struct NextWakeTests {
    @Test("A tick before the wake time does nothing", arguments: 1...12)
    func ticksBeforeTheWakeDoNothing(seed: UInt64) {
        var world = RandomWorld(seed: seed)
        var watcher = Watcher(policy: world.policy)
        var probes = 0
        var events: [WatcherEvent] = [.loaded(devices: [:], since: [:], at: world.now)]
        for step in 0..<300 {
            for event in events { world.absorb(watcher.handle(event)) }
            // After the step's own tick: ticks at times before the wake (nothing else happening) do nothing.
            let now = world.now
            let wake = watcher.nextWake(world.fleet, now: now)
            let times = wake.map { wake in [0.001, 0.5, 0.999].map { now + (wake - now) * $0 } } ?? [1, 600, 8 * 3600].map { now + $0 }
            for time in times where time < (wake ?? .infinity) && time > now {
                probes += 1
                var probe = watcher
                let effects = probe.handle(.ticked(world.fleet, at: time))
                #expect(effects == [], "seed \(seed) step \(step): a tick at \(time) before the wake \(String(describing: wake))")
                #expect(probe.boxes == watcher.boxes && probe.since == watcher.since, "seed \(seed) step \(step) at \(time)")
                guard effects.isEmpty else { return }
            }
            events = world.nextEvents()
        }
        #expect(probes > 100, "seed \(seed): only \(probes) probes")
    }

    @Test("The devices with app tokens are indexed as their profiles say, through every event", arguments: 1...6)
    func appTokenIndexFollowsTheProfiles(seed: UInt64) {
        var world = RandomWorld(seed: seed)
        var watcher = Watcher(policy: world.policy)
        var events: [WatcherEvent] = [.loaded(devices: [:], since: [:], at: world.now)]
        var indexed = 0
        for step in 0..<200 {
            for event in events {
                world.absorb(watcher.handle(event))
                let scanned = Set(watcher.boxes.entries.filter {
                    $0.value.record.profile.apnsToken != nil || $0.value.record.profile.widgetPushToken != nil
                }.keys)
                #expect(watcher.devicesWithAppTokens == scanned, "seed \(seed) step \(step)")
                indexed += scanned.count
            }
            events = world.nextEvents()
            if step == 100 { events.append(.deviceDeleted(world.devices[0], at: world.now)) }
            if step == 150 { watcher.releaseDevices([world.devices[1]]) }
        }
        #expect(indexed > 0)
    }

    @Test("Loaded: one tick; then nothing to decide, no wake; a touched phone wakes now; a card wakes for its stale-date refresh")
    func wakeTimesOfASmallWorld() throws {
        var harness = WatcherHarness()
        #expect(harness.watcher.nextWake(harness.fleet, now: harness.now) == harness.now, "the first tick reduces the fleet")
        harness.tick()
        #expect(harness.watcher.nextWake(harness.fleet, now: harness.now) == nil)
        harness.report(DeviceProfile(env: .sandbox), device: "phone")
        #expect(harness.watcher.nextWake(harness.fleet, now: harness.now) == harness.now)
        harness.register(.update, String(repeating: "1", count: 64), device: "phone")
        harness.work("s1", cwd: "/w")
        harness.tickAndDeliver()
        harness.tickAndDeliver()
        let card = try #require(harness.watcher.boxes["phone"]?.record.card)
        let staleAt = try #require(card.staleAt)
        let wake = harness.watcher.nextWake(harness.fleet, now: harness.now)
        #expect(wake == staleAt - harness.watcher.policy.staleRefreshLead)
    }
}
