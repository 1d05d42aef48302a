import FleetCore

/// The randomized scenarios: several devices, the idle phone, and a day in the life.
extension Scenario {
    /// Two phones with their own device ids (one card each, no fight over one slot) and an old phone whose
    /// app is deleted mid-run (its tokens answer 410 and are pruned).
    static let multiDevice = Scenario("multi-device", "two phones with their own cards; a third deletes the app (410s)", duration: 3600,
        good: "iOS 18: correct >= 99 %, honest >= 99.9 %, one card per phone, no loops",
        holes: "iOS 17: a push-started card's token comes back only when iOS wakes the app"
    ) { sim in
        sim.addServer("pro")
        let iphone = sim.addPhone("iphone", device: "iphone-1")
        let ipad = sim.addPhone("ipad", device: "ipad-1")
        let old = sim.addPhone("old-iphone", device: "old-iphone", environment: .sandbox)
        for phone in [iphone, ipad, old] { sim.at(1) { phone.open($0) } }
        for phone in [iphone, ipad, old] { sim.at(30) { phone.leave($0) } }
        sim.at(600) { old.uninstall($0) }
        Workload(hosts: ["studio", "laptop"], meanGapByHour: Array(repeating: 240, count: 24))
            .schedule(in: sim, from: 60, to: 3300)
        AppVisits(meanGap: 900).schedule(iphone, in: sim, from: 60, to: 3500)
        AppVisits(meanGap: 1500).schedule(ipad, in: sim, from: 60, to: 3500)
    }

    /// The hole the seed leaves open: token mode, and nobody opens the app for eight hours. Every card is
    /// push-started; whether its token ever comes back depends on a background launch iOS may skip, and
    /// until it does, updates and ends go to the previous card's dead token, which answers 200.
    static let idlePhone = Scenario("idle-phone", "nobody opens the app for 8 h; every card is push-started", duration: 8 * 3600,
        good: "iOS 18: correct >= 99 %, honest >= 99.9 %, one card; iOS 17: honest >= 99 %, lying 90 % below the old rules",
        holes: "iOS 17 (token mode): cards whose token never came back cannot be updated; they can only turn stale"
    ) { sim in
        let phone = sim.addIdlePhone()
        Workload(hosts: ["studio", "laptop"], meanGapByHour: Array(repeating: 1500, count: 24))
            .schedule(in: sim, from: 120, to: 8 * 3600 - 1800)
        NetworkOutages.realistic.schedule(phone, in: sim, from: 120, to: 8 * 3600 - 600)
    }

    /// A day in the life: busy daytime, quiet night, the app opened now and then, a host down for twenty
    /// minutes, a server restart, and dev-build reinstalls that left rotted push-to-start tokens.
    static let day = Scenario("day", "24 h: daytime bursts, idle nights, visits, a host outage, a restart", duration: 24 * 3600,
        good: "iOS 18: correct >= 99 %, honest >= 99.9 %, one card; iOS 17: honest >= 99 %, lying 90 % below the old rules",
        holes: "iOS 17 (token mode): as idle-phone between visits; a host outage leaves the count unknown"
    ) { sim in
        let pro = sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.seedRottedStartTokens(for: phone, on: pro, count: 16, environment: .sandbox)
        sim.at(1) { phone.open($0) }
        sim.at(30) { phone.leave($0) }
        var gaps = Array(repeating: 5400.0, count: 24)
        for hour in 8..<20 { gaps[hour] = 420 }
        Workload(hosts: ["studio", "laptop"], meanGapByHour: gaps).schedule(in: sim, from: 60, to: 24 * 3600 - 3600)
        AppVisits(meanGap: 2400, wakingHours: 7..<23).schedule(phone, in: sim, from: 60, to: 24 * 3600 - 600)
        NetworkOutages.realistic.schedule(phone, in: sim, from: 60, to: 24 * 3600 - 600)
        sim.at(10 * 3600) { _ in pro.restart(sim) }
        sim.at(14 * 3600) { $0.setHost("laptop", isDown: true) }
        sim.at(14 * 3600 + 1200) { $0.setHost("laptop", isDown: false) }
    }
}
