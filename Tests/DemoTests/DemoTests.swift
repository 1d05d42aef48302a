import Demo
import FleetCore
import Testing

@Suite struct DemoPhoneTests {
    @Test("A push-to-start makes a card and registers its new update token after the cycle's delay")
    func startIsAdopted() {
        var phone = DemoPhone(pushToStartToken: "p2s")
        let effects = phone.handle(.pushed(token: "p2s", event: "start"), adoptionDelay: 25) { "upd1" }
        #expect(effects == [.registerUpdateToken("upd1", afterSeconds: 25)])
        #expect(phone.hasCard && phone.updateToken == "upd1")
    }

    @Test("An end to the card's token removes it; pushes to other tokens change nothing")
    func endRemovesCard() {
        var phone = DemoPhone(pushToStartToken: "p2s")
        _ = phone.handle(.pushed(token: "p2s", event: "start"), adoptionDelay: 2) { "upd1" }
        #expect(phone.handle(.pushed(token: "stale", event: "end"), adoptionDelay: 2) { "x" }.isEmpty)
        #expect(phone.hasCard)
        #expect(phone.handle(.pushed(token: "upd1", event: "end"), adoptionDelay: 2) { "x" }.isEmpty)
        #expect(!phone.hasCard && phone.updateToken == nil)
    }

    @Test("The person ending the card reports /ended, but only when there is a card")
    func personEndsCard() {
        var phone = DemoPhone(pushToStartToken: "p2s")
        #expect(phone.handle(.personEndedCard, adoptionDelay: 2) { "x" }.isEmpty)
        _ = phone.handle(.pushed(token: "p2s", event: "start"), adoptionDelay: 2) { "upd1" }
        #expect(phone.handle(.personEndedCard, adoptionDelay: 2) { "x" } == [.reportEnded])
        #expect(!phone.hasCard)
    }
}

@Suite struct DemoSceneTests {
    /// Active and needs-input counts after each step of `cycle`, replaying its reports through the ladder.
    static func replay(cycle: Int) -> [(at: Double, active: Int, needsInput: Int)] {
        var reports: [String: SessionReport] = [:]
        var down: Set<String> = []
        return DemoScene.steps(cycle: cycle).map { step in
            switch step.action {
            case .report(let sid, let report): reports[sid] = report
            case .remove(let sid): reports[sid] = nil
            case .hostReachable(let host, let isReachable):
                if isReachable { down.remove(host) } else { down.insert(host) }
            case .personEndsCard: break
            }
            let states = reports.values.compactMap { DisplayState.resolve($0, isHostDown: down.contains($0.host.rawValue)) }
            return (step.at, states.filter(\.isActive).count, states.filter { $0 == .needsInput }.count)
        }
    }

    @Test("Within the first minute a card is due, grows past three rows with someone asking, and every session ends")
    func cycleStartsGrowsAndEnds() throws {
        let timeline = Self.replay(cycle: 0)
        #expect(timeline.first?.active == 1)
        #expect(timeline.contains { $0.at < 60 && $0.active >= 4 && $0.needsInput >= 1 })
        #expect(try #require(timeline.last).active == 0)
        #expect(timeline.allSatisfy { $0.at < DemoScene.cycleSeconds })
        #expect(timeline.map(\.at) == timeline.map(\.at).sorted())
    }

    @Test("Cycles use new session ids, alternate a quick and a late adoption, and every third one the person ends the card")
    func cyclesVary() {
        let sids = { (cycle: Int) in
            Set(DemoScene.steps(cycle: cycle).compactMap { step -> String? in
                if case .report(let sid, _) = step.action { return sid }
                return nil
            })
        }
        #expect(sids(0).isDisjoint(with: sids(1)))
        #expect([0, 1, 2, 3].map(DemoScene.adoptionDelay(cycle:)) == [2, 25, 2, 25])
        let ends = (0..<6).map { cycle in DemoScene.steps(cycle: cycle).contains { $0.action == .personEndsCard } }
        #expect(ends == [false, false, true, false, false, true])
    }
}
