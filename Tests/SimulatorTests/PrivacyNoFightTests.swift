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
