import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// A control plane in memory for the async driver: answers every call and records it.
actor RecordingControlPlaneClient: ControlPlaneClient {
    let listing: SessionsReply
    private(set) var calls: [ControlPlaneCall] = []

    init(listing: SessionsReply) { self.listing = listing }

    func perform(_ call: ControlPlaneCall, on server: ServerProfile) async throws(ControlPlaneError)
        -> ControlPlaneReply
    {
        calls.append(call)
        if case .fetchSessions = call { return .sessions(listing) }
        return .accepted
    }
}

/// The main-actor driver the real app runs: same engine, real tasks, no simulator.
@Suite struct FleetAppDriverTests {
    @Test("The driver carries calls out and feeds answers and ActivityKit events back to the engine")
    @MainActor
    func driverRunsTheEngine() async throws {
        let clock = VirtualClock()
        let host = InMemoryActivityHost(clock: clock.wallClock)
        host.appLaunched(inForeground: true)
        let client = RecordingControlPlaneClient(listing: SessionsReply(sessions: [.fixture("a")]))
        let configuration = AppConfiguration(
            deviceID: "phone-1", environment: .production, servers: [PhoneHarness.home], defaultServerName: "home")
        let driver = FleetAppDriver(
            configuration: configuration, host: host, alerts: InMemoryAlertCenter(), client: client,
            storage: InMemoryKeyValueStorage(), phoneClock: clock.wallClock, sleeper: ContinuousClock())

        driver.launch()
        await driver.waitForCalls()
        let card = try #require(host.fleetActivities.first)
        #expect(driver.engine.model.liveSessionsFetchedOnce)

        // Twice: the card's arrival makes the app observe it, and only then is its token yielded.
        for _ in 0..<2 {
            clock.advance(by: 1)
            let (events, continuation) = AsyncStream.makeStream(of: ActivityHostEvent.self)
            while let event = host.takeNextDueEvent() { continuation.yield(event) }
            continuation.finish()
            await driver.run(events: events)
            await driver.waitForCalls()
        }
        driver.stop()

        let token = try #require(host.updateToken(of: card.id))
        let calls = await client.calls
        #expect(calls.contains(.fetchSessions))
        #expect(calls.contains(.registerToken(
            TokenRegistration(kind: .update, token: token), env: .production, deviceID: "phone-1")))
    }
}
