import FleetApp
import FleetCore
import Foundation
import Testing

/// Guard `server-since`: the app dates its rows from the server's listing, which saw every change as it
/// happened, never from its own baselines of before a suspension (multi-device: a session the card did
/// not show kept its pre-sleep `since`, sorted first, and the app rewrote the server's right card).
@Suite("Server-listed since")
struct ServerSinceTests {
    static let asleepAt: UnixTime = 100
    static let wokeAt: UnixTime = 1_000

    static func listed(_ sid: SessionID, since: SinceEntry? = nil, busy: Bool = true, prompt: Prompt? = nil)
        -> SessionsReply.Session
    {
        SessionsReply.Session(
            sid: sid, report: SessionReport(title: "Session \(sid)", cwd: "/work", busy: busy, prompt: prompt),
            displayState: prompt == nil ? .working : .needsInput, since: since)
    }

    /// An app that counted a, b, c and d working since 100, slept while "a" asked and was answered (the
    /// server's baseline: working since 400), and woke to the server's right card: b, c, d and one more.
    static func woken(guards: GuardSet) -> (FleetActivityController.Decision, FleetActivityController) {
        var controller = FleetActivityController()
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: ["a", "b", "c", "d"].map { listed($0) }))
        _ = controller.sync(.refreshCompleted, model: model, cards: [], now: asleepAt, guards: guards)
        controller.noteSuspended()
        model.demoteToCache()

        let working = { (since: UnixTime) in SinceEntry(state: .working, since: since) }
        model.applyLiveFetch(SessionsReply(sessions: [
            listed("a", since: working(400)), listed("b", since: working(asleepAt)),
            listed("c", since: working(asleepAt)), listed("d", since: working(asleepAt)),
        ]))
        let serverCard = ContentState(
            working: 4,
            rows: ["b", "c", "d"].map { Row(sid: $0, title: "Session \($0)", state: .working, since: asleepAt) },
            more: 1, updatedAt: 900)
        let card = FleetActivity(id: "card-1", content: serverCard, state: .active)
        let decision = controller.sync(.refreshCompleted, model: model, cards: [card], now: wokeAt, guards: guards)
        return (decision, controller)
    }

    @Test("Woken, a session the card does not show is dated by the server's listing: the server's card stands")
    func listedSinceKeepsTheServersCard() {
        let (decision, controller) = Self.woken(guards: .all)
        #expect(decision.effects == [])
        #expect(decision.reduction.contentState.rows.map(\.sid) == ["b", "c", "d"])
        #expect(controller.since["a"] == SinceEntry(state: .working, since: 400))
    }

    @Test("Without server-since the app's pre-sleep baseline puts the session first and rewrites the card")
    func withoutGuardTheStaleBaselineWins() throws {
        let (decision, controller) = Self.woken(guards: .without(.serverSince))
        let effect = try #require(decision.effects.first)
        guard case .update(_, let content) = effect else { throw CancellationError() }
        #expect(content.rows.map(\.sid) == ["a", "b", "c"])
        #expect(controller.since["a"] == SinceEntry(state: .working, since: Self.asleepAt))
    }

    @Test("A listed baseline of another state than the session's report is not used")
    func baselineOfAnotherStateIsIgnored() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [
            Self.listed("a", since: SinceEntry(state: .needsInput, since: 50)),
            Self.listed("b", since: SinceEntry(state: .needsInput, since: 60), prompt: Prompt(kind: .question, text: "?")),
        ]))
        #expect(model.listedBaselines == ["b": SinceEntry(state: .needsInput, since: 60)])
    }

    @Test("A change learned without a baseline clears the listed one; a change with one replaces it")
    func changesReplaceTheListedBaseline() {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [Self.listed("a", since: SinceEntry(state: .working, since: 50))]))
        model.setPrompt(Prompt(kind: .question, text: "?"), for: "a")
        model.setPrompt(nil, for: "a")
        #expect(model.listedBaselines == [:])
        model.upsert(
            SessionReport(title: "Session a", cwd: "/work", busy: true), for: "a",
            since: SinceEntry(state: .working, since: 70))
        #expect(model.listedBaselines == ["a": SinceEntry(state: .working, since: 70)])
        model.upsert(SessionReport(title: "Session a", cwd: "/work", busy: true), for: "a")
        #expect(model.listedBaselines == [:])
    }

    @Test("The listing's since decodes, and one the app cannot read is left out without failing the listing")
    func decoding() throws {
        let json = #"""
            {"sessions":[
              {"sid":"a","title":"t","busy":true,"displayState":"working","since":{"state":"working","since":400}},
              {"sid":"b","title":"t","busy":true,"displayState":"working","since":"soon"}]}
            """#
        let reply = try JSONDecoder().decode(SessionsReply.self, from: Data(json.utf8))
        #expect(reply.sessions.map(\.since) == [SinceEntry(state: .working, since: 400), nil])
    }
}
