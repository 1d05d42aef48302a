import ControlPlane
import FleetCore
import Testing

@testable import Simulator

/// The oracle bound, the wrong seconds by cause, and the needs-you timing rule (issue 11, Must-show).
@Suite struct BoundAndCauseTests {
    /// A locked phone offline for ten minutes while its session changes: no product can show that change.
    private static let outage = Scenario("outage", "a locked phone offline for ten minutes", duration: 1500) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.at(1) { phone.open($0) }
        sim.at(10) { $0.begin("s1", "Fix the build") }
        sim.at(60) { phone.leave($0) }
        sim.at(300) { phone.setOnline(false, $0) }
        sim.at(400) { $0.ask("s1") }
        sim.at(900) { phone.setOnline(true, $0) }
    }

    @Test("The oracle is wrong exactly while the phone is offline and the truth moved; every wrong second has a cause")
    func oracleAndCauses() {
        let result = SimulationReport.run([Self.outage], seed: 1, ios: .ios18).scenarios[0]
        let bound = result.details.bound
        // From the change (400 s) to the reconnect (900 s): 500 of 1500 s.
        #expect(abs(bound.oracleCorrectFraction - 1000.0 / 1500) < 0.001)
        // The oracle's card turns stale LFG_STALE_AFTER_S after the connection dropped (300 s + S).
        let lyingUntil = min(300 + CardPolicy.defaultStaleAfterSeconds, 900)
        #expect(abs(bound.oracleHonestFraction - (1 - (lyingUntil - 400) / 1500)) < 0.001)
        #expect(result.metrics.correctFraction <= bound.oracleCorrectFraction + 0.001)
        #expect((bound.incorrectByCause["phone-offline"] ?? 0) >= 499)
        let wrong = (1 - result.metrics.correctFraction) * result.metrics.simulatedSeconds
        let attributed = bound.incorrectByCause.values.reduce(0, +)
        #expect(abs(wrong - attributed) < 0.01)
    }

    @Test("The JSON carries the bound and the causes after the contract's keys")
    func jsonExtension() {
        let json = SimulationReport.run([Self.outage], seed: 1).json
        #expect(json.contains("\"oracleCorrectFraction\":"))
        #expect(json.contains("\"oracleHonestFraction\":"))
        #expect(json.contains("\"incorrectSecondsByCause\":{\"phone-offline\":"))
        #expect(json.contains("\"dishonestSecondsByCause\":{"))
    }

    @Test("A needs-you transition the card already shows is on time; one nothing shows is late until pushed")
    func needsYouAlreadyShown() {
        func card(_ state: RowState) -> ContentState {
            ContentState(
                working: state == .working ? 1 : 0, needsInput: state == .needsInput ? 1 : 0,
                rows: [Row(sid: "flappy", title: "t", state: state, since: 0)])
        }
        func reduction(_ state: RowState) -> FleetReduction {
            FleetReduction(contentState: card(state), since: [:], activeTotal: 1, isTrustworthy: true)
        }
        var recorder = TimelinessRecorder()
        // The working flap was held (routine), so the card still shows needs-input when it asks again.
        recorder.truthChanged(
            phone: 0, from: reduction(.working), to: reduction(.needsInput), shown: [card(.needsInput)], at: 10)
        recorder.truthChanged(phone: 0, from: reduction(.needsInput), to: reduction(.working), shown: [], at: 14)
        var figures = recorder.finish(at: 20)
        #expect(figures.needsYouTransitions == 1 && figures.needsYouLate == 0)
        // A card showing working: the transition waits for the wire, and 3 s later is late.
        recorder.truthChanged(
            phone: 0, from: reduction(.working), to: reduction(.needsInput), shown: [card(.working)], at: 20)
        recorder.pushSent(phone: 0, content: card(.needsInput), priority: 10, at: 23)
        figures = recorder.finish(at: 30)
        #expect(figures.needsYouTransitions == 2 && figures.needsYouLate == 1)
    }

    /// A session flipping every 20 s for an hour and a half on a locked phone: 270 changes, far more than
    /// iOS's 15 priority-10 pushes an hour, so most reach the phone with priority-5 delay.
    private static let busy = Scenario("busy", "a session flipping every 20 s on a locked phone", duration: 5400) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.at(1) { phone.open($0) }
        sim.at(5) { $0.begin("s1", "Fix the build") }
        sim.at(30) { phone.leave($0) }
        for step in 0..<260 {
            sim.at(60 + Double(step) * 20) { step.isMultiple(of: 2) ? $0.ask("s1") : $0.answer("s1") }
        }
    }

    @Test("The delivery bound: at most the oracle, below it when changes outrun iOS's priority-10 budget, and the same offline")
    func deliveryBound() {
        let busy = SimulationReport.run([Self.busy], seed: 1, ios: .ios18).scenarios[0]
        let bound = busy.details.bound
        #expect(bound.oracleCorrectFraction == 1)
        // 260 changes at 20 s apart, 15 an hour at priority 10: ~200 wait 0-5 s (mean 2.5 s) after APNs.
        let wrongSeconds = (1 - bound.deliveryBoundCorrectFraction) * 5400
        #expect(wrongSeconds > 300 && wrongSeconds < 700)
        #expect(busy.metrics.correctFraction <= bound.deliveryBoundCorrectFraction + 0.001)
        let outage = SimulationReport.run([Self.outage], seed: 1, ios: .ios18).scenarios[0].details.bound
        // Offline the delivery rules change nothing: what reaches the phone on reconnect lands at once.
        #expect(abs(outage.deliveryBoundCorrectFraction - outage.oracleCorrectFraction) < 0.001)
        #expect(abs(outage.deliveryBoundHonestFraction - outage.oracleHonestFraction) < 0.001)
    }

    @Test("A push APNs accepted and dropped is its own cause until the next push lands")
    func droppedPushCause() {
        var world = SimulationEnvironment()
        world.apnsDropAfterAcceptance = 1
        let simulation = Simulation(seed: 1, ios: .ios18, guards: .all, environment: world, duration: 600)
        simulation.addServer("pro")
        let phone = simulation.addPhone("iphone", device: "iphone-1")
        simulation.at(1) { phone.open($0) }
        simulation.at(5) { $0.begin("s1", "Fix the build") }
        simulation.at(30) { phone.leave($0) }
        simulation.at(100) { $0.begin("s2", "Bump the toolchain") }
        let (_, details) = simulation.run()
        #expect((details.bound.incorrectByCause["push-dropped"] ?? 0) > 400)
        #expect(details.bound.incorrectByCause["other"] == nil)
    }

    @Test("A card-less stretch lasts until the look that finds a card again, not the last look without one")
    func cardlessStretchEndsAtTheCard() {
        var recorder = TimelinessRecorder()
        recorder.look(phone: 0, cardless: true, at: 120)
        recorder.look(phone: 0, cardless: true, at: 120.01)
        recorder.look(phone: 0, cardless: false, at: 120.4)
        #expect(abs(recorder.finish(at: 200).longestCardlessActiveSeconds - 0.4) < 1e-9)
        recorder.look(phone: 0, cardless: true, at: 150)
        #expect(abs(recorder.finish(at: 200).longestCardlessActiveSeconds - 50) < 1e-9)
    }
}
