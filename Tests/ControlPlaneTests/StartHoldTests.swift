import ControlPlane
import FleetCore
import Testing

/// A due start waits briefly for a foreground app's own card (guard `adopt-on-register`).
@Suite struct StartHoldTests {
    /// A legacy device with a push-to-start token whose app said `appState` at the harness's time, then
    /// a session that turned active a second later; returns the first tick's effects.
    static func activeWhile(_ appState: DeviceAppState?, guards: GuardSet = .all) -> (WatcherHarness, [WatcherEffect]) {
        var harness = WatcherHarness(guards: guards)
        harness.register(.pushToStart, hex("a"))
        if let appState { harness.watcher.handle(.appStateReported(.legacy, appState, at: harness.now)) }
        harness.work("s1")
        let effects = harness.tick(advancing: 1)
        return (harness, effects)
    }

    @Test("A start held for a foreground app is adopted by the app's update token within the grace: no start")
    func heldStartIsAdopted() {
        var (harness, first) = Self.activeWhile(.foreground)
        #expect(first.batches.isEmpty)
        #expect(first.loggedEvents == [.startHeld])
        harness.now += 1
        harness.register(.update, hex("c"))
        let next = harness.tick(advancing: 0.5)
        #expect(next.batches.map(\.action) == [.update])
        #expect(harness.card()?.origin == .adopted)
    }

    @Test("With no registration the held start goes out once the grace is over, not before")
    func heldStartLeavesAfterGrace() {
        var (harness, first) = Self.activeWhile(.foreground)
        #expect(first.loggedEvents == [.startHeld])
        let justBefore = harness.tick(advancing: 2.5)  // 2.5 s into the 3 s grace
        #expect(justBefore.batches.isEmpty)
        #expect(justBefore.logLines.isEmpty)  // start-held is logged once per hold
        let atDeadline = harness.tick(advancing: 0.5)
        #expect(atDeadline.batches.map(\.action) == [.start])
    }

    @Test("With adopt-on-register off, a foreground app's start leaves at once")
    func guardOffStartsAtOnce() {
        let (_, first) = Self.activeWhile(.foreground, guards: .without(.adoptOnRegister))
        #expect(first.batches.map(\.action) == [.start])
        #expect(!first.loggedEvents.contains(.startHeld))
    }

    @Test("A device that never said, or said background, or whose foreground report is stale starts at once")
    func idlePhonesAreNotHeld() {
        #expect(Self.activeWhile(nil).1.batches.map(\.action) == [.start])
        #expect(Self.activeWhile(.background).1.batches.map(\.action) == [.start])

        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.watcher.handle(.appStateReported(.legacy, .foreground, at: harness.now))
        harness.watcher.handle(.appStateReported(.legacy, .background, at: harness.now + 1))
        harness.work("s1")
        #expect(harness.tick(advancing: 2).batches.map(\.action) == [.start])

        var stale = WatcherHarness()
        stale.register(.pushToStart, hex("a"))
        stale.watcher.handle(.appStateReported(.legacy, .foreground, at: stale.now))
        stale.work("s1")
        #expect(stale.tick(advancing: StartHold().foregroundFreshness).batches.map(\.action) == [.start])
    }
}

@Suite struct AppStateAPITests {
    @Test("PUT /api/devices with appState foreground holds the first start for the grace, then it goes out")
    func foregroundReportHoldsStart() async throws {
        let harness = try await ServiceHarness()
        let put = await harness.call(
            "PUT", "/api/devices/phone", #"{"env":"sandbox","pushToStartToken":"\#(hexA)","appState":"foreground"}"#)
        #expect(put.status == 200)
        await harness.call("PUT", "/api/sessions/s1", #"{"busy":true}"#)
        await harness.service.tick()
        #expect(harness.gateway.delivered.isEmpty)
        #expect(await harness.service.recentDecisionLog(limit: 5).contains { $0.contains("start-held") })

        harness.time.advance(3)
        await harness.service.tick()
        #expect(harness.gateway.delivered.map(\.action) == [.start])
    }
}
