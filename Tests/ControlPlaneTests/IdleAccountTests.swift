import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Testing

/// An instance serves thousands of accounts, most with nothing to decide: such a service sets no tick timer.
@Suite struct IdleAccountTests {
    static func service(clock: ManualClock = ManualClock()) -> ControlPlaneService {
        ControlPlaneService(
            .init(
                store: InMemoryStore(), gateway: ScriptedPushGateway.answeringEverything(status: 200),
                decisionLog: InMemoryDecisionLog(), wallClock: ManualTime().wallClock, clock: clock,
                tickInterval: .seconds(60)))
    }

    @Test("A service with nothing to decide is idle once its first tick ran; a session, a host or a device ends it")
    func idleUntilSomethingArrives() async throws {
        let quiet = Self.service()
        try await quiet.start()
        // Idle is ``nextTickDue`` being nil: the stored state loaded is looked at by one tick first.
        #expect(await quiet.nextTickDue != nil)
        await quiet.tick()
        #expect(await quiet.nextTickDue == nil)
        #expect(await quiet.isIdle)
        let withSession = Self.service()
        try await withSession.start()
        try await withSession.putSession("s1", SessionReport(title: "Build", busy: true))
        #expect(await !withSession.isIdle)
        let withHost = Self.service()
        try await withHost.start()
        try await withHost.heartbeat("mac", ttlSeconds: 30)
        #expect(await !withHost.isIdle)
        let withDevice = Self.service()
        try await withDevice.start()
        try await withDevice.registerToken("phone", .update, env: .sandbox, hex: hexA)
        #expect(await !withDevice.isIdle)
    }

    @Test("An idle service ticks when something changes, then on time again")
    func changeRearmsTheTimer() async throws {
        let clock = ManualClock()
        let service = Self.service(clock: clock)
        try await service.start()
        let loop = Task { await service.run() }
        defer { loop.cancel() }
        try await service.heartbeat("mac", ttlSeconds: 30)
        // The change's tick waits for the rest of its burst (10 ms), then the timer is set from then.
        let window = clock.now.advanced(by: .milliseconds(10))
        try await clock.waitForSleeper(until: window)
        clock.advance(by: .milliseconds(10))
        try await clock.waitForSleeper(until: window.advanced(by: .seconds(60)))
    }
}
