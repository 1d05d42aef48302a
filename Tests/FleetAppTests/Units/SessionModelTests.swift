import FleetApp
import FleetCore
import Testing

/// The session store: what the card counts and when its count is trusted.
@Suite struct SessionModelTests {
    @Test("Hydrating from the cache is not a live fetch: the count stays untrusted")
    func cacheIsNotLive() {
        var model = SessionModel()
        model.hydrate(fromCache: [SessionEntry(sid: "a", report: SessionReport(busy: true))])
        #expect(!model.liveSessionsFetchedOnce)
        #expect(!model.fleetCountIsTrustworthy)
        model.applyLiveFetch(SessionsReply(sessions: []))
        #expect(model.fleetCountIsTrustworthy)
        #expect(model.sessions.isEmpty)
    }

    @Test("A host known down makes the count untrusted, and its sessions read unknown")
    func downHostUntrusted() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [
            .fixture("a", host: "mac", displayState: .unknown), .fixture("b", host: "pi"),
        ]))
        #expect(model.hosts == ["mac": .knownDown, "pi": .up])
        #expect(!model.fleetCountIsTrustworthy)
        #expect(model.filteredSessions.map(\.displayState) == [.unknown, .working])
    }

    @Test("filteredSessions leaves out hidden folders on path boundaries; busy and prompts read through")
    func filtered() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [
            .fixture("a", cwd: "/w/secret"), .fixture("b", cwd: "/w/secretive"),
            .fixture("c", cwd: "/w/secret/x", prompt: Prompt(kind: .permission, text: "ok?")),
        ]))
        model.hiddenDirs = ["/w/secret"]
        #expect(model.filteredSessions.map(\.sid) == ["b"])
        #expect(model.busy == ["a": true, "b": true, "c": true])
        #expect(model.prompts.keys.sorted() == ["c"])
    }
}

/// The controller's own decisions, apart from the phone.
@Suite struct FleetActivityControllerTests {
    @Test("Adopting a card someone else wrote keeps its elapsed baselines, so nothing is pushed")
    func adoptsBaselines() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [.fixture("a")]))
        let card = FleetActivity(id: "x", content: .fixture(working: ["a"], since: 500, updatedAt: 900))
        var controller = FleetActivityController()
        let decision = controller.sync(.launch, model: model, cards: [card], now: 1_000)
        #expect(decision.verdict == .keep)
        #expect(decision.effects == [])
        #expect(controller.since == ["a": SinceEntry(state: .working, since: 500)])
    }

    @Test("A card is only ever requested with push type token")
    func requestsWithToken() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [.fixture("a")]))
        var controller = FleetActivityController()
        let decision = controller.sync(.modelChanged, model: model, cards: [], now: 1_000)
        #expect(decision.effects == [.request(decision.reduction.contentState, pushType: .token)])
    }

    @Test("An untrusted count keeps the old baselines and does nothing, even with no card")
    func untrustedDoesNothing() {
        var model = SessionModel()
        model.hydrate(fromCache: [SessionEntry(sid: "a", report: SessionReport(busy: true))])
        var controller = FleetActivityController()
        let decision = controller.sync(.launch, model: model, cards: [], now: 1_000)
        #expect(decision.verdict == .untouched)
        #expect(decision.effects == [])
        #expect(controller.since == [:])
    }

    @Test("Ending ends every live card and reports /ended once; with no card nothing is reported")
    func endsAll() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: []))
        var controller = FleetActivityController()
        let cards = [FleetActivity(id: "x", content: ContentState(working: 1)),
                     FleetActivity(id: "y", content: ContentState(working: 1), state: .ended)]
        let decision = controller.sync(.refreshCompleted, model: model, cards: cards, now: 1_000)
        #expect(decision.effects == [.end("x", finalContent: .zeroed(at: 1_000), dismissal: .immediate), .reportEnded])
        #expect(controller.sync(.refreshCompleted, model: model, cards: [], now: 1_001).effects == [])
    }
}
