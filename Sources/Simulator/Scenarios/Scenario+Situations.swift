import FleetCore

/// The seed's situations A to G, scripted second by second.
extension Scenario {
    /// A: you start a session with the app open. The app's card appears at once and the server adopts it.
    static let situationA = Scenario("A", "a session starts with the app open; the server adopts the app's card", duration: 900) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.at(1) { _ in phone.open(sim) }
        sim.at(20) { $0.begin("s1", "Does codex work for lfg?") }
        sim.at(200) { $0.ask("s1") }
        sim.at(260) { $0.answer("s1") }
        sim.at(420) { $0.finish("s1") }
        // More turns with the app open, at uneven instants against the server's tick.
        let titles = ["Read SessionListView.swift", "In the iOS client, can you add…", "Fix the flaky test",
                      "Bump the toolchain", "Why is the card stale?"]
        for (offset, title) in titles.enumerated() {
            let start = 480 + Double(offset) * 70 + sim.script.uniform(0...2)
            let sid = SessionID("s\(offset + 2)")
            sim.at(start) { $0.begin(sid, title) }
            sim.at(start + 50) { $0.finish(sid) }
        }
        sim.at(840) { _ in phone.leave(sim) }
    }

    /// B: you lock the phone; sessions change and finish. Only the server's pushes keep the card right, and
    /// only because it adopted the app's card when its token arrived (an iOS 17.1 phone: no push-to-start,
    /// so the app's card is the only one). Five sessions (more than three rows), stale update tokens of
    /// earlier cards, 5xx on 40% of production pushes.
    static let situationB = Scenario("B", "the phone is locked; the server's pushes keep the card right", duration: 900, environment: flakyAPNs) { sim in
        let pro = sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        phone.supportsPushToStart = false
        sim.seedCorpseUpdateTokens(for: phone, on: pro, environments: [.production, .production, .production, .sandbox])
        sim.at(1) { _ in phone.open(sim) }
        let titles = ["Does codex work for lfg?", "Read SessionListView.swift", "In the iOS client, can you add…",
                      "Fix the flaky test", "Bump the toolchain"]
        for (offset, title) in titles.enumerated() {
            sim.at(10 + Double(offset) * 5) { $0.begin(SessionID("s\(offset + 1)"), title) }
        }
        sim.at(60) { _ in phone.leave(sim) }
        sim.at(120) { $0.finish("s2") }
        sim.at(200) { $0.ask("s3") }
        sim.at(300) { $0.finish("s4") }
        sim.at(400) { $0.answer("s3") }
        sim.at(500) { sim in sim.finish("s1"); sim.finish("s5") }
        sim.at(600) { $0.finish("s3") }
    }

    /// C: the phone is idle and the server push-starts a card. The first time iOS wakes the app (with an
    /// empty store); the second time it does not, and updates go to the previous card's dead token.
    static let situationC = Scenario("C", "idle phone: push-start, a background launch with an empty store, then no launch at all", duration: 900) { sim in
        sim.addServer("pro")
        sim.addServer("mini")
        let phone = sim.addPhone("iphone", device: "iphone-1", servers: ["pro", "mini"])
        // Every dev build minted a push-to-start token; they rot rather than die.
        sim.seedRottedStartTokens(for: phone, on: sim.servers[0], count: 16, environment: .sandbox)
        phone.backgroundWakeChance = 1
        sim.at(1) { _ in phone.open(sim) }
        sim.at(15) { _ in phone.leave(sim) }
        sim.at(40) { _ in phone.terminate(sim) }
        sim.at(60) { $0.begin("s1", "Does codex work for lfg?") }
        sim.at(300) { $0.finish("s1") }
        sim.at(330) { _ in phone.backgroundWakeChance = 0 }
        sim.at(400) { $0.begin("s2", "Read SessionListView.swift") }
        sim.at(500) { $0.ask("s2") }
        sim.at(700) { _ in phone.open(sim) }
        sim.at(800) { _ in phone.leave(sim) }
    }

    /// D: everything finishes with the app open; one agent keeps working in a folder the phone hides and
    /// the server was never told about (a failed `PUT /api/devices`). The veto stops the start/end loop.
    static let situationD = Scenario("D", "everything visible finishes; a hidden-folder session the server still counts", duration: 420) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1", hiddenDirs: ["/scratch"])
        phone.reportsHiddenDirs = false
        sim.at(1) { _ in phone.open(sim) }
        sim.at(10) { $0.begin("s1", "Does codex work for lfg?") }
        sim.at(12) { $0.begin("s2", "Read SessionListView.swift") }
        sim.at(14) { $0.begin("h1", "Overnight experiment", cwd: "/scratch/exp") }
        sim.at(120) { $0.finish("s1") }
        sim.at(180) { $0.finish("s2") }
        sim.at(400) { _ in phone.leave(sim) }
    }

    /// E: a host goes offline while its session runs: the count is unknown, not zero.
    static let situationE = Scenario("E", "a host goes down: the card is neither ended nor zeroed", duration: 900) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.at(1) { _ in phone.open(sim) }
        sim.at(10) { $0.begin("a1", "Does codex work for lfg?", host: "studio") }
        sim.at(12) { $0.begin("b1", "Read SessionListView.swift", host: "laptop") }
        sim.at(60) { _ in phone.leave(sim) }
        sim.at(120) { $0.setHost("laptop", isDown: true) }
        sim.at(180) { $0.finish("a1") }
        sim.at(240) { _ in phone.open(sim) }
        sim.at(420) { $0.setHost("laptop", isDown: false) }
        sim.at(480) { _ in phone.leave(sim) }
        sim.at(600) { $0.finish("b1") }
    }

    /// F: the server restarts while the app ends the card (the /ended lands mid-load), and an agent's
    /// scratch `lfg serve` on a spare port shares the token store for a while.
    static let situationF = Scenario("F", "server restart with an /ended mid-load; a scratch server on a spare port", duration: 900, environment: slowLoad) { sim in
        let pro = sim.addServer("pro")
        // An agent's scratch `lfg serve --port 8799` on the same home, started while nothing runs.
        sim.addServer("scratch", port: 8799, sharing: pro.store, lifetime: 620...900)
        let phone = sim.addPhone("iphone", device: "iphone-1")
        phone.backgroundWakeChance = 1
        sim.at(1) { _ in phone.open(sim) }
        sim.at(10) { $0.begin("s1", "Does codex work for lfg?") }
        sim.at(119) { _ in pro.restart(sim) }
        sim.at(119.5) { _ in phone.leave(sim) }
        sim.at(120) { $0.finish("s1") }
        sim.at(121) { $0.begin("s2", "Read SessionListView.swift") }
        sim.at(250) { $0.begin("s3", "In the iOS client, can you add…") }
        sim.at(400) { _ in phone.open(sim) }
        sim.at(460) { _ in phone.leave(sim) }
        sim.at(600) { sim in sim.finish("s2"); sim.finish("s3") }
        sim.at(700) { $0.begin("s4", "Fix the flaky test") }
        sim.at(850) { $0.finish("s4") }
    }

    /// G: two cards exist: the app creates one while its token registration crawls through a slow tunnel,
    /// and the server's push-start (slow APNs) lands beside it. Dedupe ends the older at once.
    static let situationG = Scenario("G", "two cards: the app's and a push-started one; dedupe keeps the newest", duration: 600, environment: slowTunnel) { sim in
        sim.addServer("pro")
        let phone = sim.addPhone("iphone", device: "iphone-1")
        sim.at(1) { _ in phone.open(sim) }
        sim.at(20) { $0.begin("s1", "Does codex work for lfg?") }
        sim.at(150) { $0.begin("s2", "Read SessionListView.swift") }
        sim.at(300) { _ in phone.leave(sim) }
        sim.at(400) { $0.finish("s1") }
        sim.at(500) { $0.ask("s2") }
    }

    private static var flakyAPNs: SimulationEnvironment {
        var environment = SimulationEnvironment()
        // The production endpoint is having a bad day; the sandbox one (where the corpse lives) is fine.
        environment.apnsTransientFailure[.production] = 0.4
        return environment
    }

    private static var slowLoad: SimulationEnvironment {
        var environment = SimulationEnvironment()
        environment.serverLoadDelay = 4
        return environment
    }

    private static var slowTunnel: SimulationEnvironment {
        var environment = SimulationEnvironment()
        // Slower one way (3.5-4.5 s) than the server's 3 s start hold for a foreground app: the twin still happens.
        environment.registrationLatency = 7...9
        environment.apnsLatency = 1...2
        return environment
    }
}
