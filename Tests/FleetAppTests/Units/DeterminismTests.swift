import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// The simulator's promise depends on this: the same calls give the same trace, byte for byte.
@Suite struct DeterminismTests {
    func script() throws -> ([AppTraceEntry], [InMemoryActivityHost.Command], [InMemoryControlPlaneOutbox.Sent]) {
        let harness = PhoneHarness(servers: [PhoneHarness.home, PhoneHarness.lab])
        harness.listing = SessionsReply(sessions: [.fixture("a"), .fixture("b", prompt: Prompt(kind: .plan, text: "ok?"))])
        harness.phone.launch(inForeground: true)
        harness.run(for: 3)
        harness.phone.suspend()
        let token = try #require(harness.host.pushToStartToken)
        harness.host.pushToStart(token: token, content: .fixture(working: ["a"], since: harness.now, updatedAt: harness.now))
        harness.run(for: 30)
        harness.phone.foreground()
        harness.change { $0.setPrompt(nil, for: "b") }
        harness.failingServers = ["home"]
        harness.change { $0.setBusy(false, for: "a") }
        harness.run(for: 120)
        let trace = try #require(harness.phone.app?.trace)
        return (trace, harness.host.commands, harness.calls)
    }

    @Test("Running the same script twice gives the same trace, commands and calls")
    func sameScriptSameTrace() throws {
        let first = try script()
        let second = try script()
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.2 == second.2)
        #expect(first.0.count > 10)
    }
}

/// The simulated phone keeps what a process did after it dies.
@Suite struct SimulatedPhoneTraceTests {
    @Test("The trace survives a relaunch and is drained once")
    func traceAcrossRelaunch() {
        let harness = PhoneHarness()
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        harness.phone.terminate()
        harness.phone.launch(inForeground: false)
        let trace = harness.phone.takeTrace()
        let launches = trace.filter { if case .synced(let decision) = $0.event { decision.trigger == .launch } else { false } }
        #expect(launches.count == 2)
        #expect(harness.phone.takeTrace().isEmpty)
    }
}
