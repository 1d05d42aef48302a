import ControlPlane
import FleetCore
import Simulator

/// `lfg simulate`: runs the deterministic lifecycle simulator (contract section 3.2).
public struct SimulateCommand: Command {
    public static let name = "simulate"
    public static let summary = "run the deterministic lifecycle simulator"
    public static let usage = """
        Usage: lfg simulate [--scenario NAME|all] [--seed N] [--ios 17|18] [--stale-after S] [--without GUARD]...
                           [--json] [--trace]
               lfg simulate --list-scenarios | --list-guards [--describe] | --prove-guards [--seed N]

        Replays the seed's situations (A-G), several devices, the idle phone and a day in virtual time,
        and reports how often the lock screen shows the truth. --without switches a guard off (repeatable)
        so its failure comes back. The same seed gives the same output, byte for byte.
          --scenario NAME   one scenario, or all (default)
          --seed N          the random seed (default \(defaultSeed))
          --ios 17|18       the phones' iOS (default 18: broadcast channels where the design uses them)
          --stale-after S   the servers' LFG_STALE_AFTER_S (default \(Int(CardPolicy.defaultStaleAfterSeconds)))
          --json            one JSON object instead of the report
          --trace           also print every step (pushes, cards, registrations, decisions)
          --list-scenarios  the scenario names, one a line (contract 3.2); --describe adds what each models
          --list-guards     the guard names, one a line (contract 3.2); --describe adds the failure each stops
          --prove-guards    for each guard, its scenario's figures with every guard on and without it
        """

    /// The seed used when none is given.
    public static let defaultSeed: UInt64 = 1

    enum Mode: Equatable { case run, listScenarios, listGuards, proveGuards }

    let mode: Mode
    let scenarios: [String]
    let seed: UInt64
    let ios: IOSVersion
    let staleAfter: Double?
    let without: Set<Guard>
    let isJSON: Bool
    let isTracing: Bool
    /// `--describe`: the listings say what each scenario models and what each guard stops, after its name.
    /// Without it they print bare names, one a line, as contract section 3.2 promises scripts.
    let isDescribing: Bool

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        let listScenarios = arguments.flag("--list-scenarios")
        let listGuards = arguments.flag("--list-guards")
        let proveGuards = arguments.flag("--prove-guards")
        isJSON = arguments.flag("--json")
        isTracing = arguments.flag("--trace")
        isDescribing = arguments.flag("--describe")
        let scenario = try arguments.value("--scenario") ?? "all"
        if scenario == "all" {
            scenarios = Scenario.all.map(\.name)
        } else if Scenario.named(scenario) != nil {
            scenarios = [scenario]
        } else {
            let names = Scenario.all.map(\.name).joined(separator: ", ")
            throw UsageError("unknown scenario '\(scenario)'; give one of \(names), or all")
        }
        if let text = try arguments.value("--seed") {
            guard let number = UInt64(text) else {
                throw UsageError("--seed takes a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            seed = number
        } else {
            seed = Self.defaultSeed
        }
        if let text = try arguments.value("--ios") {
            guard let version = Int(text).flatMap(IOSVersion.init(rawValue:)) else {
                throw UsageError("--ios takes 17 or 18, not '\(text)'")
            }
            ios = version
        } else {
            ios = .ios18
        }
        if let text = try arguments.value("--stale-after") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError("--stale-after takes a number of seconds above 0, not '\(text)'")
            }
            staleAfter = seconds
        } else {
            staleAfter = nil
        }
        var without: Set<Guard> = []
        for name in try arguments.values("--without") {
            guard let found = Guard(rawValue: name) else {
                throw UsageError("unknown guard '\(name)'; run 'lfg simulate --list-guards' for the names")
            }
            without.insert(found)
        }
        self.without = without
        let modes = [(listScenarios, Mode.listScenarios), (listGuards, .listGuards), (proveGuards, .proveGuards)]
            .filter(\.0).map(\.1)
        guard modes.count <= 1 else {
            throw UsageError("give one of --list-scenarios, --list-guards and --prove-guards")
        }
        mode = modes.first ?? .run
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        switch mode {
        case .listScenarios:
            context.write((isDescribing ? Scenario.listing : Scenario.all.map(\.name).joined(separator: "\n")) + "\n")
        case .listGuards:
            let names = GuardProof.all.map(\.guard.rawValue).joined(separator: "\n")
            context.write((isDescribing ? GuardProof.listing : names) + "\n")
        case .proveGuards:
            context.write(GuardProof.table(seed: seed) + "\n")
        case .run:
            let chosen = scenarios.compactMap(Scenario.named)
            let report = SimulationReport.run(
                chosen, seed: seed, ios: ios, without: without, tracing: isTracing, staleAfter: staleAfter)
            if isTracing {
                for result in report.scenarios {
                    context.write("== \(result.name)\n" + (result.trace ?? []).joined(separator: "\n") + "\n")
                }
            }
            context.write((isJSON ? report.json : report.text) + "\n")
        }
        return 0
    }
}
