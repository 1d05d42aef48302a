import FleetCore

/// The result of one scenario.
public struct ScenarioResult: Hashable, Sendable {
    public var name: String
    public var summary: String
    /// What "good" is in this scenario, and the figures known not to reach it.
    public var good: String
    public var holes: String
    public var metrics: ScenarioMetrics
    public var details: ScenarioDetails
    /// Every notable step, one line each, when the run was traced.
    public var trace: [String]?
}

/// Everything one `lfg simulate` run produced: the seed, the guards switched off, and each scenario's figures.
public struct SimulationReport: Hashable, Sendable {
    public var seed: UInt64
    /// The iOS every simulated phone runs.
    public var ios: IOSVersion
    /// Guard names switched off, in the contract's order.
    public var without: [Guard]
    public var scenarios: [ScenarioResult]

    /// Runs `scenarios` with `seed` and every guard on except `without`.
    ///
    /// Each scenario gets its own generator, derived from the seed and the scenario's position, so
    /// running one scenario alone gives the same figures as running it within `all`.
    public static func run(
        _ scenarios: [Scenario], seed: UInt64, ios: IOSVersion = .ios18, without: Set<Guard> = [],
        tracing: Bool = false, staleAfter: Double? = nil
    ) -> SimulationReport {
        let guards = GuardSet(disabled: without)
        let results = scenarios.map { scenario in
            let simulation = Simulation(
                seed: seed ^ scenario.seedSalt, ios: ios, guards: guards, environment: scenario.environment,
                duration: scenario.duration)
            if tracing { simulation.trace = [] }
            if let staleAfter { simulation.staleAfter = staleAfter }
            scenario.build(simulation)
            let (metrics, details) = simulation.run()
            return ScenarioResult(
                name: scenario.name, summary: scenario.summary, good: scenario.good, holes: scenario.holes,
                metrics: metrics, details: details,
                trace: simulation.trace)
        }
        return SimulationReport(
            seed: seed, ios: ios, without: Guard.allCases.filter(without.contains), scenarios: results)
    }

    /// The contract's JSON object (section 3.2), keys in the contract's order, one line.
    public var json: String {
        let without = self.without.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        let scenarios = self.scenarios.map { result in
            let fields = result.metrics.jsonFields + result.details.timeliness.jsonFields + result.details.bound.jsonFields
            let metrics = fields.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            return "{\"name\":\"\(result.name)\",\"metrics\":{\(metrics)}}"
        }.joined(separator: ",")
        return "{\"seed\":\(seed),\"ios\":\(ios.rawValue),\"without\":[\(without)],\"scenarios\":[\(scenarios)]}"
    }
}

extension Scenario {
    /// Mixes the scenario's name into the seed (FNV-1a), so each scenario draws its own stream.
    var seedSalt: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
