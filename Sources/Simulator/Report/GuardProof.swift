import FleetCore

/// For each guard: the scenario where its failure shows, and the figures that show it.
///
/// `lfg simulate --prove-guards` runs each scenario with every guard on, then without that one guard,
/// and prints the figures side by side; the tests assert the same contrasts.
public struct GuardProof: Sendable {
    /// One figure of a run, named as the report names it.
    public struct Figure: Sendable {
        public let name: String
        let read: @Sendable (ScenarioResult) -> Double
        let digits: Int
    }

    public let `guard`: Guard
    public let scenario: String
    /// The failure the seed's guard table names.
    public let failure: String
    public let figures: [Figure]
    /// Later guards that close the same hole and would hide this guard's failure (token forgetting
    /// removes the corpses supersede keeps out; the priority budget rate-limits the pushes
    /// updated-at-excluded saves): switched off in both runs of the proof, so it shows this guard alone.
    public var masking: Set<Guard> = []
    /// The iOS the proof runs on: the seed's guards are token-mode rules (iOS 17); channel rules need 18.
    public var ios: IOSVersion = .ios17

    static let correct = Figure(name: "correct %", read: { $0.metrics.correctFraction * 100 }, digits: 1)
    static let p99 = Figure(name: "p99 s", read: { $0.metrics.timeToCorrectP99 }, digits: 1)
    static let pushes = Figure(name: "pushes", read: { Double($0.metrics.pushes) }, digits: 0)
    static let killed = Figure(name: "cards killed <30 s", read: { Double($0.details.pushStartedCardsKilled) }, digits: 0)
    static let loops = Figure(name: "loops", read: { Double($0.metrics.startEndLoops) }, digits: 0)
    static let multi = Figure(name: "multi-card s", read: { $0.metrics.multiCardSeconds }, digits: 0)
    static let maxCards = Figure(name: "max cards", read: { Double($0.metrics.maxVisibleCards) }, digits: 0)
    static let starts = Figure(name: "starts", read: { Double($0.metrics.starts) }, digits: 0)
    static let honest = Figure(name: "honest %", read: { $0.metrics.honestFraction * 100 }, digits: 1)
    static let lying = Figure(name: "lying s", read: { $0.metrics.lyingSeconds }, digits: 0)
    static let frozen = Figure(name: "frozen s", read: { $0.metrics.frozenSeconds }, digits: 0)
    static let cardless = Figure(
        name: "longest no-card s", read: { $0.details.timeliness.longestCardlessActiveSeconds }, digits: 0)
    static let immediateHour = Figure(
        name: "priority-10 worst hour", read: { Double($0.details.timeliness.immediatePushesWorstHour) }, digits: 0)
    static let overheight = Figure(name: "overheight s", read: { $0.details.overheightSeconds }, digits: 0)

    /// Every guard of the contract, in its order.
    public static let all: [GuardProof] = [
        GuardProof(guard: .endGateTrust, scenario: "C", failure: "an empty store kills the push-started card", figures: [killed, correct]),
        GuardProof(guard: .startVeto, scenario: "D", failure: "end, push-start, end again", figures: [loops, starts]),
        GuardProof(
            guard: .supersede, scenario: "B", failure: "every update also blasts dead tokens", figures: [pushes],
            masking: [.tokenForgetting, .priorityBudget]),
        GuardProof(
            guard: .allAccept, scenario: "B", failure: "a corpse's 200 counts; the card stays stale", figures: [correct, p99],
            masking: [.tokenForgetting, .priorityBudget]),
        GuardProof(
            guard: .pushToStartCap, scenario: "C", failure: "every start blasts every rotted token", figures: [pushes],
            masking: [.newestStartToken]),
        GuardProof(guard: .dedupe, scenario: "G", failure: "two cards, the visible one stale", figures: [multi, correct]),
        GuardProof(guard: .adoptOnRegister, scenario: "B", failure: "nobody updates the app's card once it sleeps", figures: [correct, p99]),
        GuardProof(
            guard: .sidDedupe, scenario: "C", failure: "an app merging two servers counts a session both know twice",
            figures: [correct, lying]),
        GuardProof(
            guard: .updatedAtExcluded, scenario: "B", failure: "every tick a push", figures: [pushes],
            masking: [.priorityBudget]),
        GuardProof(guard: .defaultHostOnly, scenario: "C", failure: "each host push-starts its own card", figures: [maxCards, multi]),
        GuardProof(guard: .pushPortGate, scenario: "F", failure: "a scratch server pushes a card of its own", figures: [starts, pushes]),
        GuardProof(guard: .maxRows, scenario: "B", failure: "overheight card, header clipped", figures: [overheight, correct]),
        GuardProof(guard: .endedReportWins, scenario: "F", failure: "an /ended mid-load is lost; the dead card resurrected", figures: [correct, p99]),
        // The five rules of issue 11, each where its hole shows.
        GuardProof(
            guard: .broadcastChannels, scenario: "idle-phone", failure: "an idle phone's card goes to a dead token",
            figures: [correct, frozen], ios: .ios18),
        GuardProof(guard: .staleDate, scenario: "idle-phone", failure: "a card nobody can reach looks live", figures: [lying, honest]),
        GuardProof(
            guard: .renewal, scenario: "eight-hours", failure: "iOS ends the card at 8 hours", figures: [correct, cardless],
            ios: .ios18),
        GuardProof(guard: .tokenForgetting, scenario: "idle-phone", failure: "updates go to an ended card's token", figures: [pushes]),
        GuardProof(
            guard: .priorityBudget, scenario: "flapping", failure: "every change spends the priority-10 budget",
            figures: [immediateHour, pushes], ios: .ios18),
        GuardProof(
            guard: .channelRotation, scenario: "day", failure: "a new card's update replaces the stored end: two cards",
            figures: [multi, maxCards], ios: .ios18),
        // The simulator's agents never hang or lose their reports, so no scenario goes quiet: the proof of
        // no-news is in FleetCoreTests (NoNewsTests) and ControlPlaneTests (SilenceRuleServiceTests).
        GuardProof(
            guard: .noNews, scenario: "A", failure: "a hung agent reads as confidently working (unreachable: simulated agents report)",
            figures: [correct]),
        GuardProof(
            guard: .serverSince, scenario: "multi-device", failure: "a woken app dates rows from its wake and rewrites the card",
            figures: [correct, honest], ios: .ios18),
        GuardProof(
            guard: .newestStartToken, scenario: "offline-start",
            failure: "a start to a replaced token, stored last, takes the real start's place: no card", figures: [correct],
            ios: .ios18),
        GuardProof(
            guard: .spareBudget, scenario: "multi-device",
            failure: "a session done waits for priority-5 delivery with the priority-10 budget unused",
            figures: [correct, immediateHour], ios: .ios18),
    ]

    /// Runs every proof with `seed` and returns the table.
    public static func table(seed: UInt64) -> String {
        var rows = [["guard", "scenario", "iOS", "figure", "all on", "without it", "the failure"]]
        for proof in all {
            guard let scenario = Scenario.named(proof.scenario) else { continue }
            let (on, off) = proof.run(scenario, seed: seed)
            for (index, figure) in proof.figures.enumerated() {
                rows.append([
                    index == 0 ? proof.guard.rawValue : "", index == 0 ? proof.scenario : "",
                    index == 0 ? String(proof.ios.rawValue) : "", figure.name,
                    SimulationReport.fixed(figure.read(on), figure.digits),
                    SimulationReport.fixed(figure.read(off), figure.digits), index == 0 ? proof.failure : "",
                ])
            }
        }
        let lines = SimulationReport.table(rows, leftAligned: [0, 1, 3, 6])
        return (["lfg simulate --prove-guards: seed \(seed)", ""] + lines).joined(separator: "\n")
    }

    /// The proof's scenario with every guard on (but the masking ones), then without this guard too.
    func run(_ scenario: Scenario, seed: UInt64) -> (on: ScenarioResult, off: ScenarioResult) {
        let on = SimulationReport.run([scenario], seed: seed, ios: ios, without: masking).scenarios[0]
        let off = SimulationReport.run([scenario], seed: seed, ios: ios, without: masking.union([`guard`])).scenarios[0]
        return (on, off)
    }

    /// `--list-guards`: one guard per line, its name first, then the failure it stops.
    public static var listing: String {
        let width = all.map(\.guard.rawValue.count).max() ?? 0
        return all.map { proof in
            proof.guard.rawValue + String(repeating: " ", count: width - proof.guard.rawValue.count + 2)
                + "without it: " + proof.failure
        }.joined(separator: "\n")
    }
}
