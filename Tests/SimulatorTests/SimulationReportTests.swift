import FleetCore
import Foundation
import Testing

@testable import Simulator

@Suite struct SimulationReportTests {
    @Test("The same seed gives the same JSON and the same report, byte for byte")
    func sameSeedSameBytes() throws {
        let scenarios = [try #require(Scenario.named("C")), try #require(Scenario.named("day")).lasting(3 * 3600)]
        let first = SimulationReport.run(scenarios, seed: 7)
        let second = SimulationReport.run(scenarios, seed: 7)
        #expect(first.json == second.json)
        #expect(first.text == second.text)
    }

    @Test("Another seed draws another day")
    func otherSeedOtherDay() throws {
        let day = try #require(Scenario.named("day")).lasting(12 * 3600)
        #expect(SimulationReport.run([day], seed: 1).json != SimulationReport.run([day], seed: 2).json)
    }

    @Test("A scenario run alone gives the figures it gives within a longer run")
    func scenarioAloneEqualsWithinAll() throws {
        let b = try #require(Scenario.named("B"))
        let a = try #require(Scenario.named("A"))
        let alone = SimulationReport.run([b], seed: 3).scenarios[0]
        let within = SimulationReport.run([a, b], seed: 3).scenarios[1]
        #expect(alone == within)
    }

    @Test("The JSON carries exactly the contract's keys")
    func jsonKeys() throws {
        let report = SimulationReport.run([try #require(Scenario.named("A"))], seed: 5, without: [.dedupe, .maxRows])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["seed", "ios", "without", "scenarios"])
        #expect(object["ios"] as? Int == 18)
        #expect(object["seed"] as? Int == 5)
        #expect(object["without"] as? [String] == ["dedupe", "max-rows"])
        let scenarios = try #require(object["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == 1)
        #expect(scenarios[0]["name"] as? String == "A")
        let metrics = try #require(scenarios[0]["metrics"] as? [String: Any])
        #expect(Set(metrics.keys) == [
            "simulatedSeconds", "correctFraction", "timeToCorrectP50", "timeToCorrectP99", "multiCardSeconds",
            "maxVisibleCards", "frozenSeconds", "starts", "clientEnded", "startEndLoops", "pushes",
            "honestFraction", "lyingSeconds", "needsYouTransitions", "needsYouLate", "needsYouWorstSeconds",
            "priority10WorstHour", "longestCardlessActiveSeconds", "checkpoints", "oracleCorrectFraction",
            "oracleHonestFraction", "incorrectSecondsByCause", "dishonestSecondsByCause",
            "deliveryBoundCorrectFraction", "deliveryBoundHonestFraction",
        ])
        #expect(metrics["simulatedSeconds"] as? Double == 900)
    }

    @Test("Scenario names are the contract's")
    func scenarioNames() {
        #expect(Scenario.all.map(\.name) == [
            "A", "B", "C", "D", "E", "F", "G", "multi-device", "idle-phone", "day", "eight-hours", "flapping",
            "swipe-away", "offline-start",
        ])
    }

    @Test("With every guard on the seed's situations show no loops and no second card beyond dedupe's moment")
    func allGuardsOn() throws {
        let report = SimulationReport.run(Scenario.all.filter { $0.duration <= 3600 }, seed: 1)
        for result in report.scenarios {
            #expect(result.metrics.multiCardSeconds < 1, "\(result.name)")
        }
        for name in ["A", "B", "D", "E", "G"] {
            let result = try #require(report.scenarios.first { $0.name == name })
            #expect(result.metrics.startEndLoops == 0, "\(name)")
            #expect(result.metrics.correctFraction > 0.95, "\(name)")
        }
    }

    @Test("The idle phone measures the hole: cards with no token back, frozen minutes")
    func idlePhoneHole() throws {
        let idle = try #require(Scenario.named("idle-phone")).lasting(3 * 3600)
        let result = SimulationReport.run([idle], seed: 1, ios: .ios17).scenarios[0]
        #expect(result.details.pushStartsWithoutTokenBack > 0)
        #expect(result.metrics.frozenSeconds > 600)
        #expect(result.details.pushStartedCardsKilled == 0)
    }
}
