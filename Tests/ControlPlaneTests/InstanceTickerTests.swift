import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Testing

/// One tick timer per instance: every account's service says when its next tick is due, and the ticker
/// wakes only those whose time has come (an instance serves thousands of accounts, most with nothing due).
@Suite struct InstanceTickerTests {
    static let interval = Duration.seconds(2)

    struct World {
        let clock = ManualClock()
        let time = ManualTime()
        let ticker: InstanceTicker
        let gateway = ScriptedPushGateway.answeringEverything(status: 200)
        let busy: ControlPlaneService
        let quiet: ControlPlaneService

        init() async throws {
            let ticker = InstanceTicker(interval: InstanceTickerTests.interval, clock: clock, wallClock: time.wallClock)
            self.ticker = ticker
            busy = Self.service(gateway, ticker, clock, time)
            quiet = Self.service(ScriptedPushGateway(), ticker, clock, time)
            try await busy.start()
            try await quiet.start()
        }

        static func service(
            _ gateway: ScriptedPushGateway, _ ticker: InstanceTicker, _ clock: ManualClock, _ time: ManualTime
        ) -> ControlPlaneService {
            var dependencies = ControlPlaneService.Dependencies(
                store: InMemoryStore(), gateway: gateway, decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock,
                clock: clock, policy: CardPolicy(staleAfter: 600), tickInterval: InstanceTickerTests.interval,
                coalesceWindow: .zero)
            dependencies.ticker = ticker
            return ControlPlaneService(dependencies)
        }

        /// One beat of the ticker, `seconds` of wall time later: returns once the ticker sleeps again.
        func beat(after seconds: Double) async throws {
            time.advance(seconds)
            let next = clock.now.advanced(by: InstanceTickerTests.interval)
            try await clock.waitForSleeper(until: next)
            clock.advance(by: InstanceTickerTests.interval)
            try await clock.waitForSleeper(until: next.advanced(by: InstanceTickerTests.interval))
        }
    }

    @Test("A settled card is woken by the shared timer only for its stale-date refresh; an empty account never")
    func wokenOnlyWhenDue() async throws {
        let world = try await World()
        let loops = [
            Task { await world.ticker.run() }, Task { await world.busy.run() }, Task { await world.quiet.run() },
        ]
        defer { for loop in loops { loop.cancel() } }
        // A change ticks at once, without the timer: the card gets the session.
        try await world.busy.registerToken("phone", .update, env: .sandbox, hex: hexA)
        try await world.busy.putSession("s1", SessionReport(title: "Build", busy: true))
        try await world.gateway.waitForDeliveries(1)
        let refreshAt = world.time.now + 600 - CardPolicy(staleAfter: 600).staleRefreshLead
        // A decision that changed a device's box is looked at again at the next beat (as every tick did),
        // and a new service's first tick reduces its fleet; then each waits for what it needs.
        try await bounded("both services settled: the busy one due for its refresh, the quiet one never") {
            while true {
                let busyDue = await world.busy.nextTickDue
                let quietDue = await world.quiet.nextTickDue
                if busyDue == refreshAt, quietDue == nil { return }
                try await world.beat(after: 0)
            }
        }
        let settledWakeUps = world.ticker.timerWakeUps
        // Beats before the refresh wake nobody.
        for _ in 0..<3 { try await world.beat(after: 100) }
        #expect(world.ticker.timerWakeUps == settledWakeUps)
        #expect(world.gateway.delivered.count == 1)
        // The beat at or after it wakes the one service due, which refreshes the card.
        try await world.beat(after: refreshAt - world.time.now)
        #expect(world.ticker.timerWakeUps == settledWakeUps + 1)
        try await world.gateway.waitForDeliveries(2)
        #expect(await world.quiet.nextTickDue == nil)
        #expect(world.ticker.registeredServices == 2)
    }
}
