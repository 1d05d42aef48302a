import FleetCore

/// The scenarios of contract 8.1: a card past iOS's 8-hour limit, and an agent that flaps.
extension Scenario {
    /// Sessions stay active for a whole day, so the card must outlive iOS's 8-hour end: renewed before
    /// it, with no gap and no duplicate. Nobody opens the app after the first minute.
    static let eightHours = Scenario(
        "eight-hours", "sessions active for 24 h, the app never opened: the card must outlive iOS's 8-hour end",
        duration: 24 * 3600 + 600,
        good: "correct at hours 9, 12 and 24; never more than 10 s without a card while a session is active",
        holes: "token mode (iOS 17): a renewed card's token comes back only if iOS wakes the app"
    ) { sim in
        sim.addIdlePhone()
        // One agent that never stops (a long migration), a second that starts and asks now and then.
        sim.at(120) { $0.begin("marathon", "Write the migration") }
        sim.at(24 * 3600 + 300) { $0.finish("marathon") }
        Workload(hosts: ["studio"], meanGapByHour: Array(repeating: 3600, count: 24))
            .schedule(in: sim, from: 600, to: 24 * 3600 - 1800)
        for hour in [9.0, 12, 24] { sim.at(hour * 3600) { $0.metrics.checkpoint(hour: Int(hour), $0) } }
    }

    /// One agent flips between working and needs-input every few seconds for an hour, beside a steady one.
    /// A needs-you moment must reach the wire within a second, and priority 10 must stay within budget.
    static let flapping = Scenario(
        "flapping", "an agent changes state every 3-10 s for an hour beside a steady one; the phone is locked",
        duration: 3600 + 300,
        good: "every needs-you transition on the wire within 1 s; priority-10 pushes per hour under iOS's budget",
        holes: "while over budget iOS holds priority-10 updates, so the card lags the flapping agent"
    ) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.at(1) { phone.open($0) }
        sim.at(5) { $0.begin("steady", "Review the APNs pool") }
        sim.at(10) { $0.begin("flappy", "Why is the card stale?") }
        sim.at(60) { phone.leave($0) }
        var time = 90.0
        var asking = false
        while time < 3600 {
            asking.toggle()
            let asks = asking
            sim.at(time) { asks ? $0.ask("flappy") : $0.answer("flappy") }
            time += sim.script.uniform(3...10)
        }
        sim.at(3700) { $0.finish("flappy") }
        sim.at(3750) { $0.finish("steady") }
    }

    /// The person swipes the card away while two sessions run (notes/simulated-ios-realism.md): no card
    /// should come back for them, and one should for a session that starts later. Nobody opens the app
    /// until the last half hour.
    static let swipeAway = Scenario(
        "swipe-away", "the person swipes the card away; the same sessions run on, then a new one starts",
        duration: 2 * 3600,
        good: "no card while only the dismissed sessions run; a card again when a new session starts",
        holes: "the server learns of the swipe only when the app next runs: a new session's card may wait for it"
    ) { sim in
        let phone = sim.addIdlePhone()
        sim.at(120) { $0.begin("s1", "Write the migration") }
        sim.at(180) { $0.begin("s2", "Fix the flaky watcher test") }
        sim.at(1800) { phone.swipeAway($0) }
        sim.at(2400) { $0.ask("s1") }
        sim.at(2700) { $0.answer("s1") }
        sim.at(3600) { $0.begin("s3", "Bump the Swift toolchain") }
        sim.at(5400) { phone.open($0) }
        sim.at(5520) { phone.leave($0) }
        sim.at(6600) { sim in
            sim.finish("s1")
            sim.finish("s2")
            sim.finish("s3")
        }
    }
}
