import APNs
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Testing

@Suite struct TickLoopTests {
    @Test("A burst of changes leaves promptly as one push per card, without waiting for the tick", .timeLimit(.minutes(1)))
    func burstCoalescesIntoOnePush() async throws {
        let clock = ManualClock()
        let gateway = ScriptedPushGateway()
        gateway.answer(hexA, status: 200)
        gateway.answer(hexB, status: 200)
        let time = ManualTime()
        let service = ControlPlaneService(.init(
            store: InMemoryStore(), gateway: gateway, decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock,
            clock: clock, tickInterval: .seconds(2), coalesceWindow: .milliseconds(10)))
        try await service.start()
        try await service.registerToken("phone", .update, env: .sandbox, hex: hexA)
        try await service.registerToken("tablet", .update, env: .sandbox, hex: hexB)
        let loop = Task { await service.run() }
        defer { loop.cancel() }

        // Starting and registering left a change pending, so the loop's first wake is a change and it opens
        // a coalescing window; the burst lands inside it. (Waiting for the 2 s tick sleeper first hung now
        // and then: when the pending change won before that sleeper was armed, the only sleeper was the
        // 10 ms window, which nobody advanced.)
        try await clock.waitForSleeper(until: clock.now.advanced(by: .milliseconds(10)))
        try await service.putSession("s1", SessionReport(busy: true))
        try await service.putSession("s2", SessionReport(busy: true))
        try await service.putSession("s3", SessionReport(prompt: Prompt(kind: .question, text: "?")))
        #expect(gateway.delivered.isEmpty)

        clock.advance(by: .milliseconds(10))
        try await gateway.waitForDeliveries(2)
        let batches = gateway.delivered
        #expect(batches.map(\.deviceId).sorted() == ["phone", "tablet"])
        #expect(batches.allSatisfy { $0.contentState.working == 2 && $0.contentState.needsInput == 1 })
        #expect(clock.now.offset == .milliseconds(10))
    }
}
