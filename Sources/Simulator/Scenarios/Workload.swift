import FleetCore

/// A randomized stream of agent turns and app visits, drawn from the run's seeded generator.
///
/// A turn: a new session starts working, asks for input with some chance part-way through (and waits
/// for an answer), then finishes; ten minutes later it is archived and leaves the list.
struct Workload {
    var hosts: [HostID]
    /// Mean seconds between turn starts, by hour of day (0-23).
    var meanGapByHour: [Double]
    var turnLength: ClosedRange<Double> = 60...1500
    var askChance = 0.35
    var waitForAnswer: ClosedRange<Double> = 30...600

    private static let titles = [
        "Does codex work for lfg?", "Read SessionListView.swift", "In the iOS client, can you add…",
        "Fix the flaky watcher test", "Bump the Swift toolchain", "Why is the card stale?", "Write the migration",
        "Review the APNs pool", "Port the dashboard", "Trim the decision log",
    ]

    /// Schedules turns from `start` to `end` (simulated seconds).
    func schedule(in simulation: Simulation, from start: Double, to end: Double) {
        var time = start
        while true {
            let hour = Int((time / 3600).rounded(.down)) % 24
            time += simulation.script.exponential(mean: meanGapByHour[hour])
            guard time < end else { return }
            scheduleTurn(at: time, in: simulation)
        }
    }

    private func scheduleTurn(at time: Double, in simulation: Simulation) {
        let number = simulation.makeSessionNumber()
        let sid = SessionID("w\(number)")
        let title = Self.titles[simulation.script.integer(0...(Self.titles.count - 1))]
        let host = hosts[simulation.script.integer(0...(hosts.count - 1))]
        let length = simulation.script.uniform(turnLength)
        simulation.at(time) { $0.begin(sid, title, host: host) }
        var finish = time + length
        if simulation.script.chance(askChance) {
            let askAt = time + simulation.script.uniform(0.2...0.8) * length
            let wait = simulation.script.uniform(waitForAnswer)
            simulation.at(askAt) { $0.ask(sid) }
            simulation.at(askAt + wait) { $0.answer(sid) }
            finish += wait
        }
        simulation.at(finish) { $0.finish(sid) }
        simulation.at(finish + 600) { $0.remove(sid) }
    }
}

/// When the person looks at the app: visits of a few minutes, at random, within waking hours.
struct AppVisits {
    var meanGap: Double
    var stay: ClosedRange<Double> = 60...300
    var wakingHours: Range<Int> = 0..<24

    func schedule(_ phone: Phone, in simulation: Simulation, from start: Double, to end: Double) {
        var time = start
        while true {
            time += simulation.script.exponential(mean: meanGap)
            guard time < end else { return }
            let hour = Int((time / 3600).rounded(.down)) % 24
            guard wakingHours.contains(hour) else { continue }
            let stay = simulation.script.uniform(self.stay)
            simulation.at(time) { phone.open($0) }
            simulation.at(time + stay) { phone.leave($0) }
            time += stay
        }
    }
}

/// Stretches with no network on a phone (a tunnel, a flight, a dead spot): minutes to hours, at random.
/// Pushes APNs accepts meanwhile wait in its storage (token mode: the last one; channels: by policy), and
/// the app's calls fail.
struct NetworkOutages {
    var meanGap: Double
    var length: ClosedRange<Double>

    /// idle-phone and day (notes/simulated-ios-realism.md: "minutes to hours"; the values are chosen,
    /// pessimistic: one every 3 hours on average, 5 to 90 minutes long).
    static let realistic = NetworkOutages(meanGap: 3 * 3600, length: 300...5400)

    func schedule(_ phone: Phone, in simulation: Simulation, from start: Double, to end: Double) {
        var time = start
        while true {
            time += simulation.script.exponential(mean: meanGap)
            guard time < end else { return }
            let length = simulation.script.uniform(self.length)
            simulation.at(time) { phone.setOnline(false, $0) }
            simulation.at(time + length) { phone.setOnline(true, $0) }
            time += length
        }
    }
}
