import LFGCommandTesting
import Foundation
import Testing

@Suite("lfg simulate")
struct SimulateCommandTests {
    static let guardNames = [
        "end-gate-trust", "start-veto", "supersede", "all-accept", "push-to-start-cap", "dedupe",
        "adopt-on-register", "sid-dedupe", "updated-at-excluded", "default-host-only", "push-port-gate",
        "max-rows", "ended-report-wins", "broadcast-channels", "stale-date", "renewal", "token-forgetting",
        "priority-budget", "channel-rotation", "no-news", "server-since", "newest-start-token",
        "spare-budget",
    ]
    static let scenarioNames = [
        "A", "B", "C", "D", "E", "F", "G", "multi-device", "idle-phone", "day", "eight-hours", "flapping", "swipe-away", "offline-start",
    ]

    @Test("--list-guards prints the contract's guard names, exactly one name a line (contract 3.2)")
    func listGuards() async {
        let run = await CapturedRun.run(["simulate", "--list-guards"])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").map(String.init) == Self.guardNames)
    }

    @Test("--list-guards --describe puts what each guard stops after its name")
    func listGuardsDescribed() async {
        let run = await CapturedRun.run(["simulate", "--list-guards", "--describe"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.map { String($0.split(separator: " ")[0]) } == Self.guardNames)
        #expect(lines.allSatisfy { $0.contains("without it: ") })
    }

    @Test("--list-scenarios prints the scenario names, exactly one name a line (contract 3.2)")
    func listScenarios() async {
        let run = await CapturedRun.run(["simulate", "--list-scenarios"])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").map(String.init) == Self.scenarioNames)
    }

    @Test("--list-scenarios --describe puts what each scenario models after its name")
    func listScenariosDescribed() async {
        let run = await CapturedRun.run(["simulate", "--list-scenarios", "--describe"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.map { String($0.split(separator: " ")[0]) } == Self.scenarioNames)
        #expect(lines.allSatisfy { $0.split(separator: " ").count > 3 })
    }

    @Test("--json with a seed and repeated --without prints one object, the same bytes twice")
    func jsonTwice() async throws {
        let arguments = ["simulate", "--scenario", "D", "--seed", "9", "--without", "start-veto", "--without", "dedupe", "--json"]
        let first = await CapturedRun.run(arguments)
        let second = await CapturedRun.run(arguments)
        #expect(first.status == 0)
        #expect(first.output == second.output)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any])
        #expect(object["seed"] as? Int == 9)
        #expect(object["ios"] as? Int == 18)
        #expect(object["without"] as? [String] == ["start-veto", "dedupe"])
        #expect((object["scenarios"] as? [[String: Any]])?.count == 1)
    }

    @Test("An unknown guard or scenario is a usage error that names it")
    func usageErrors() async {
        let guardRun = await CapturedRun.run(["simulate", "--without", "no-such-guard"])
        #expect(guardRun.status == 2)
        #expect(guardRun.errors.contains("unknown guard 'no-such-guard'"))
        let scenarioRun = await CapturedRun.run(["simulate", "--scenario", "Z"])
        #expect(scenarioRun.status == 2)
        #expect(scenarioRun.errors.contains("unknown scenario 'Z'"))
        let seedRun = await CapturedRun.run(["simulate", "--seed", "-1"])
        #expect(seedRun.status == 2)
    }

    @Test("The report states the seed, the table and how correctness is judged")
    func report() async {
        let run = await CapturedRun.run(["simulate", "--scenario", "A"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("lfg simulate: seed 1; iOS 18; guards off: none"))
        #expect(run.output.contains("correct: every phone shows exactly one card"))
    }
}
