import FleetCore
import Testing

@testable import Simulator

/// The simulated world is as unkind as the real one (notes/simulated-ios-realism.md).
@Suite struct WorldRealismTests {
    @Test("iOS's priority-10 budget: 15 in a rolling hour, the next slot when the oldest leaves it")
    func immediateBudget() {
        var budget = ImmediateBudget(perHour: 15)
        var spent: [Bool] = []
        for second in 0..<15 { spent.append(budget.spend(at: Double(second))) }
        #expect(spent.allSatisfy { $0 })
        let overBudget = budget.spend(at: 100)
        #expect(!overBudget)
        #expect(budget.nextSlot(after: 100) == 3600)
        let freed = budget.spend(at: 3600)
        let again = budget.spend(at: 3600)
        #expect(freed && !again)
    }

    /// A locked phone loses its network while a session starts and changes; APNs keeps only the newest
    /// token push, and the card catches up when the phone is back.
    @Test("Offline, APNs keeps the last token push and hands it over on reconnect; nothing reaches the phone before")
    func outageStoresLastPush() throws {
        let scenario = Scenario("outage", "a locked phone offline for ten minutes", duration: 1500) { sim in
            sim.addServer("pro")
            let phone = sim.addPhone("iphone", device: "iphone-1")
            phone.supportsPushToStart = false
            sim.at(1) { phone.open($0) }
            sim.at(10) { $0.begin("s1", "Fix the build") }
            sim.at(60) { phone.leave($0) }
            sim.at(300) { phone.setOnline(false, $0) }
            sim.at(400) { $0.ask("s1") }
            sim.at(500) { $0.answer("s1") }
            sim.at(600) { $0.begin("s2", "Ship it") }
            sim.at(900) { phone.setOnline(true, $0) }
        }
        let result = SimulationReport.run([scenario], seed: 1, ios: .ios17, tracing: true).scenarios[0]
        let trace = result.trace ?? []
        #expect(trace.contains { $0.contains("iphone: network lost") })
        // Wrong from the first change while offline (400 s) to the reconnect (900 s), right after it.
        #expect(result.metrics.correctFraction < 1 - 450.0 / 1500)
        #expect(result.metrics.correctFraction > 1 - 560.0 / 1500)
    }
}
