import ControlPlane
import FleetApp
import FleetAppTesting
import FleetCore
import Testing

@testable import Simulator

/// Privacy mode's two writers (contract 8.3): the server pushes wordless states, the app, alive, puts the words
/// back with local updates. They must not fight: ten simulated minutes with the app in the foreground send no
/// more pushes than with privacy off, and the card keeps its words.
@Suite struct PrivacyNoFightTests {
    struct Run {
        var pushes: Int
        var localUpdates: Int
        var titles: [String]
    }

    /// The app opened and kept in the foreground for ten minutes while two sessions work, ask, are answered
    /// and are renamed every minute.
    static func run(privacy: Bool, seed: UInt64 = 1) -> Run {
        let simulation = Simulation(seed: seed, ios: .ios17, guards: .all, environment: .init(), duration: 600)
        simulation.privacy = privacy
        simulation.addServer("pro")
        let phone = simulation.addPhone("iphone", device: "iphone-1")
        simulation.at(1) { phone.open($0) }
        simulation.at(5) { $0.begin("s1", "Fix the build") }
        simulation.at(30) { $0.begin("s2", "Write the docs") }
        for minute in stride(from: 60.0, to: 600, by: 60) {
            simulation.at(minute) { $0.ask("s1", "Proceed with step \(Int(minute))?") }
            simulation.at(minute + 20) { $0.answer("s1") }
            simulation.at(minute + 40) { $0.begin("s2", "Write the docs, part \(Int(minute) / 60)") }
        }
        let (metrics, _) = simulation.run()
        let card = phone.rig.host.visibleFleetCards.first
        let updates = phone.rig.host.commands.filter { if case .update = $0 { true } else { false } }.count
        return Run(pushes: metrics.pushes, localUpdates: updates, titles: card?.content.rows.map(\.title).sorted() ?? [])
    }

    @Test("Ten minutes with the app alive: privacy sends no more pushes than privacy off, and the card keeps its words")
    func noFight() {
        let off = Self.run(privacy: false)
        let on = Self.run(privacy: true)
        #expect(on.pushes <= off.pushes)
        #expect(on.pushes > 0)
        // Each wordless push is answered by at most one local update that puts the words back; no ping-pong.
        #expect(on.localUpdates <= off.localUpdates + on.pushes)
        #expect(on.titles == ["Fix the build", "Write the docs, part 9"])
        #expect(off.titles == on.titles)
    }
}

/// Privacy mode's leak check across every simulator scenario (contract 8.3): no Live Activity push of any
/// scenario (token or broadcast, iOS 17 and 18) carries a title or a question's text when privacy applies; with
/// it off, the same count shows the words leaving, so the check can fail.
@Suite struct PrivacyScenarioLeakTests {
    /// Where privacy comes from in a run.
    enum Privacy { case off, phones, serverDefault }

    /// Scenarios whose phone's `PUT /api/devices` never reaches the server (D: an app whose device report is
    /// refused): the server never hears that phone ask for privacy, so only `LFG_PRIVACY=1` makes it private.
    static let deviceReportNeverArrives: Set<String> = ["D"]

    /// `scenario` cut to at most `seconds`, run once.
    static func run(_ scenario: Scenario, _ privacy: Privacy, ios: IOSVersion, seconds: Double = 1800)
        -> (pushes: Int, worded: Int)
    {
        let cut = scenario.lasting(min(scenario.duration, seconds))
        let simulation = Simulation(
            seed: 1 ^ cut.seedSalt, ios: ios, guards: .all, environment: cut.environment, duration: cut.duration)
        simulation.privacy = privacy == .phones
        simulation.serversArePrivateByDefault = privacy == .serverDefault
        cut.build(simulation)
        let (metrics, _) = simulation.run()
        return (metrics.pushes, simulation.wordedPushes)
    }

    @Test("Phones that ask for privacy: no push of any scenario carries words; off: the same scenarios push them",
          arguments: [IOSVersion.ios17, .ios18])
    func phonesAsk(ios: IOSVersion) {
        var pushedWithPrivacy = 0
        var wordedWithoutPrivacy = 0
        for scenario in Scenario.all where !Self.deviceReportNeverArrives.contains(scenario.name) {
            let on = Self.run(scenario, .phones, ios: ios)
            #expect(on.worded == 0, "\(scenario.name): \(on.worded) of \(on.pushes) pushes carried words")
            pushedWithPrivacy += on.pushes
            wordedWithoutPrivacy += Self.run(scenario, .off, ios: ios).worded
        }
        #expect(pushedWithPrivacy > 0)
        #expect(wordedWithoutPrivacy > 0, "the check can fail: without privacy the titles are pushed")
    }

    @Test("LFG_PRIVACY=1: no push of any scenario carries words, even a phone whose device report never arrives",
          arguments: [IOSVersion.ios17, .ios18])
    func serverDefault(ios: IOSVersion) throws {
        for scenario in Scenario.all {
            let on = Self.run(scenario, .serverDefault, ios: ios)
            #expect(on.worded == 0, "\(scenario.name): \(on.worded) of \(on.pushes) pushes carried words")
        }
        // The one scenario left out above does leak when only the phone asks: why LFG_PRIVACY exists.
        for name in Self.deviceReportNeverArrives {
            let scenario = try #require(Scenario.named(name))
            #expect(Self.run(scenario, .phones, ios: ios).worded > 0)
        }
    }
}
