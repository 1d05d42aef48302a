/// One named situation the simulator can replay: its world, its script and how long it runs.
public struct Scenario: Sendable {
    public let name: String
    /// One line for `--list-scenarios` readers and the report.
    public let summary: String
    /// What "good" is in this scenario (the verdict's yardstick).
    public let good: String
    /// Figures the design is known not to reach yet, said up front.
    public let holes: String
    /// Simulated seconds.
    public var duration: Double
    /// The environment this scenario runs in (some tighten one knob to make their situation happen).
    public var environment: SimulationEnvironment
    let build: @Sendable (Simulation) -> Void

    init(
        _ name: String, _ summary: String, duration: Double, environment: SimulationEnvironment = .init(),
        good: String = "the card equals the truth (correct near 100 %), no loops, one card",
        holes: String = "none known", build: @escaping @Sendable (Simulation) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.good = good
        self.holes = holes
        self.duration = duration
        self.environment = environment
        self.build = build
    }

    /// Every scenario, in the order `--scenario all` runs them.
    public static let all: [Scenario] = [
        .situationA, .situationB, .situationC, .situationD, .situationE, .situationF, .situationG,
        .multiDevice, .idlePhone, .day, .eightHours, .flapping, .swipeAway, .offlineStarts,
    ]

    /// The scenario called `name` (contract names: `A`...`G`, `multi-device`, `idle-phone`, `day`).
    public static func named(_ name: String) -> Scenario? { all.first { $0.name == name } }

    /// `--list-scenarios`: one scenario per line, its name first, then what it models.
    public static var listing: String {
        let width = all.map(\.name.count).max() ?? 0
        return all.map { $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary }
            .joined(separator: "\n")
    }

    /// The same scenario, cut short: tests use it to keep their runtime small.
    public func lasting(_ seconds: Double) -> Scenario {
        var copy = self
        copy.duration = seconds
        return copy
    }
}
