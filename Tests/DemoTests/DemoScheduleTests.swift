import Demo
import FleetCore
import Testing

@Suite struct DemoScheduleTests {
    let schedule = DemoSchedule.standard

    @Test("The first minute starts, updates and ends a card: sessions start, ask, get answers and finish")
    func firstMinuteMovesTheCard() {
        let actions = schedule.steps(after: -1, through: 60).map(\.action).filter {
            if case .heartbeat = $0 { false } else { true }
        }
        let starts = actions.filter { if case .startSession = $0 { true } else { false } }
        let asks = actions.filter { if case .ask = $0 { true } else { false } }
        let answers = actions.filter { if case .answer = $0 { true } else { false } }
        let phoneAnswers = actions.filter { if case .answerFromPhone = $0 { true } else { false } }
        let finishes = actions.filter { if case .finish = $0 { true } else { false } }
        #expect(starts.map(\.sid) == ["watcher-1", "tests-1", "deploy-1", "readme-1", "cache-1", "toolchain-1"])
        #expect(asks.map(\.sid) == ["deploy-1", "cache-1", "toolchain-1"])
        #expect(phoneAnswers == [.answerFromPhone("deploy-1", "Allow"), .answerFromPhone("cache-1", "SQLite")])
        #expect(answers.map(\.sid) == ["toolchain-1"])
        // Every ask carries a question id, fresh each cycle.
        let ids = (asks + schedule.steps(after: 119, through: 180).map(\.action)).compactMap { action -> String? in
            if case .ask(_, let prompt) = action { prompt.id } else { nil }
        }
        #expect(ids == ["deploy-ask-1", "cache-ask-1", "toolchain-ask-1", "deploy-ask-2", "cache-ask-2", "toolchain-ask-2"])
        #expect(finishes.map(\.sid) == ["watcher-1", "tests-1", "readme-1", "deploy-1", "cache-1"])
        #expect(actions.first == .openApp)
        #expect(actions.contains(.leaveApp))
    }

    @Test("Windows partition the steps: played in two halves, the demo sees each step exactly once")
    func windowsPartitionSteps() {
        let whole = schedule.steps(after: -1, through: 300)
        var pieces: [DemoStep] = []
        var played = -1.0
        for end in stride(from: 0.25, through: 300, by: 0.25) {
            pieces += schedule.steps(after: played, through: end)
            played = end
        }
        #expect(pieces == whole)
        #expect(whole.map(\.at) == whole.map(\.at).sorted())
    }

    @Test("Each cycle gets fresh session ids, so archived sessions never come back")
    func cyclesRenameSessions() {
        let second = schedule.steps(after: 120, through: 240).compactMap(\.action.sid)
        #expect(!second.isEmpty)
        #expect(second.allSatisfy { $0.rawValue.hasSuffix("-2") })
        #expect(schedule.steps(after: 119, through: 120).map(\.action).contains(.openApp))
    }

    @Test("A host that goes down sends no heartbeat until it is back, long enough to be known down")
    func outageSilencesHeartbeats() throws {
        let down = try #require(schedule.script.first { $0.action == .hostGoesDown("laptop") }?.at)
        let back = try #require(schedule.script.first { $0.action == .hostComesBack("laptop") }?.at)
        let beats = schedule.steps(after: -1, through: 120).filter { $0.action == .heartbeat("laptop") }.map(\.at)
        #expect(!beats.contains { $0 >= down && $0 < back })
        let lastBeat = try #require(beats.last { $0 < down })
        #expect(back - lastBeat > schedule.hostTTL)
        #expect(beats.contains { $0 > back })
        #expect(schedule.isDown("laptop", at: down) && !schedule.isDown("laptop", at: down - 0.5))
        #expect(!schedule.isDown("laptop", at: back) && !schedule.isDown("studio", at: down))
        // Heartbeats come often enough that an up host is never mistaken for a down one.
        #expect(schedule.heartbeatEvery * 2 < schedule.hostTTL)
    }

    @Test("During the outage the down host's session is the only active one, so the card must stay untouched")
    func outageLeavesOnlyTheDownHostActive() throws {
        let down = try #require(schedule.script.first { $0.action == .hostGoesDown("laptop") }?.at)
        var active: [SessionID: HostID] = [:]
        for step in schedule.script where step.at <= down {
            switch step.action {
            case .startSession(let sid, _, let host, _): active[sid] = host
            case .finish(let sid), .archive(let sid): active[sid] = nil
            default: break
            }
        }
        #expect(Set(active.values) == ["laptop"])
    }

    @Test("iOS wakes the app at once after a push-to-start in even cycles, late in odd ones (the idle phone)")
    func lateWakeInOddCycles() {
        #expect(schedule.wakeDelay(afterPushToStartAt: 50) == 0)
        #expect(schedule.wakeDelay(afterPushToStartAt: 170) == schedule.lateWakeDelay)
        #expect(schedule.wakeDelay(afterPushToStartAt: 290) == 0)
        #expect(schedule.lateWakeDelay > 0)
    }
}
