import APNs
import ControlPlane
import FleetCore
import Testing

@Suite struct TickLoopTests {
    @Test("A burst of changes leaves promptly as one push per card, without waiting for the tick", .timeLimit(.minutes(1)))
    func burstCoalescesIntoOnePush() async throws {
        let clock = ManualClock()
        let gateway = ScriptedPushGateway()
        let time = ManualTime()
        let service = ControlPlaneService(.init(
            store: InMemoryStore(), gateway: gateway, decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock,
            clock: clock, tickInterval: .seconds(2), coalesceWindow: .milliseconds(10)))
        try await service.start()
        try await service.registerToken("phone", .update, env: .sandbox, hex: hexA)
        try await service.registerToken("tablet", .update, env: .sandbox, hex: hexB)
        let loop = Task { await service.run() }
        defer { loop.cancel() }

        // The loop first waits for a change (the 2 s tick sleeper is armed); then the burst arrives.
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(2)))
        try await service.putSession("s1", SessionReport(busy: true))
        await clock.waitForSleeper(until: clock.now.advanced(by: .milliseconds(10)))
        try await service.putSession("s2", SessionReport(busy: true))
        try await service.putSession("s3", SessionReport(prompt: Prompt(kind: .question, text: "?")))
        #expect(gateway.delivered.isEmpty)

        clock.advance(by: .milliseconds(10))
        await gateway.waitForDeliveries(2)
        let batches = gateway.delivered
        #expect(batches.map(\.deviceId).sorted() == ["phone", "tablet"])
        #expect(batches.allSatisfy { $0.contentState.working == 2 && $0.contentState.needsInput == 1 })
        #expect(clock.now.offset == .milliseconds(10))
    }
}
