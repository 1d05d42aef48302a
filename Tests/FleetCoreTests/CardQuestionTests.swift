import FleetCore
import Foundation
import Testing

/// Issue 14.4: the card shows the oldest pending question's words where they fit.
@Suite struct CardQuestionTests {
    static func asking(
        _ sid: SessionID, id: String? = "q-\(UUID().uuidString.prefix(4))", kind: Prompt.Kind = .permission,
        text: String = "Allow rm -rf build?", options: [String]? = nil, expiresAt: UnixTime? = nil
    ) -> FleetSession {
        .fixture(sid, prompt: Prompt(id: id, kind: kind, text: text, options: options, expiresAt: expiresAt))
    }

    @Test("The card carries the question of the session that has waited longest, with Allow / Deny for a permission")
    func oldestPendingQuestion() {
        let first = FleetReducer.reduce([Self.asking("a", id: "qa", text: "Deploy?")], now: 100)
        let both = FleetReducer.reduce(
            [Self.asking("b", id: "qb", kind: .question, text: "Which DB?", options: ["Postgres", "SQLite"]),
             Self.asking("a", id: "qa", text: "Deploy?")],
            previousSince: first.since, now: 200)
        #expect(both.contentState.question == CardQuestion(
            id: "qa", sid: "a", kind: .confirm, text: "Deploy?", buttons: ["Allow", "Deny"]))
    }

    @Test("A choice or text question offers no buttons; a plan offers Approve / Keep planning")
    func buttonsByKind() {
        let choice = FleetReducer.reduce(
            [Self.asking("a", id: "q1", kind: .question, text: "Which?", options: ["x", "y"])], now: 1)
        #expect(choice.contentState.question?.kind == .choice)
        #expect(choice.contentState.question?.buttons == [])
        let plan = FleetReducer.reduce([Self.asking("a", id: "q2", kind: .plan, text: "The plan")], now: 1)
        #expect(plan.contentState.question?.buttons == ["Approve", "Keep planning"])
    }

    @Test("Beside a question the state carries one row less, the rest counted in More")
    func rowLeftForTheQuestion() {
        let sessions = [Self.asking("a", id: "qa")] + ["b", "c", "d"].map { FleetSession.working(SessionID($0)) }
        let state = FleetReducer.reduce(sessions, now: 1).contentState
        #expect(state.rows.count == FleetReducer.maxRowsBesideQuestion)
        #expect(state.more == 2)
        let withoutQuestion = FleetReducer.reduce([.waiting("a")] + sessions.dropFirst(), now: 1).contentState
        #expect(withoutQuestion.rows.count == FleetReducer.maxRows)
    }

    @Test("No question without an id, for a sign-in, past its expiry, or in a hidden folder")
    func unanswerablePromptsShowNothing() {
        let cases: [FleetSession] = [
            Self.asking("a", id: nil),
            Self.asking("a", id: "s", kind: .signin, text: "Sign in"),
            Self.asking("a", id: "late", expiresAt: 50),
        ]
        for session in cases {
            let reduction = FleetReducer.reduce([session], now: 50)
            #expect(reduction.contentState.needsInput == 1)
            #expect(reduction.contentState.question == nil)
        }
        let hidden = FleetSession.fixture("h", cwd: "/secret", prompt: Prompt(id: "qh", kind: .permission, text: "x"))
        #expect(FleetReducer.reduce([hidden], hiddenDirs: HiddenDirs(["/secret"]), now: 1).contentState.question == nil)
        // One tick before its expiry it is still shown.
        #expect(FleetReducer.reduce([Self.asking("a", id: "late", expiresAt: 50)], now: 49.9).contentState.question != nil)
    }

    @Test("A question appearing or changing is a different card; the same question is the same card")
    func comparison() {
        let plain = FleetReducer.reduce([.waiting("a")], now: 1)
        let asked = FleetReducer.reduce([Self.asking("a", id: "q1", text: "Run tests?")], previousSince: plain.since, now: 1)
        let other = FleetReducer.reduce(
            [Self.asking("a", id: "q2", text: "Run tests?")], previousSince: asked.since, now: 2)
        #expect(!plain.contentState.isSame(as: asked.contentState))
        #expect(!asked.contentState.isSame(as: other.contentState))
        let again = FleetReducer.reduce([Self.asking("a", id: "q1", text: "Run tests?")], previousSince: asked.since, now: 9)
        #expect(asked.contentState.isSame(as: again.contentState))
    }

    @Test("Long words are cut to the budget; a long sid and id leave the text less room")
    func fitting() {
        let long = String(repeating: "\"", count: 2_000)
        let question = Question(id: "q", sid: "s", kind: .text, text: long, options: [], createdAt: 0, expiresAt: nil)
        let card = CardQuestion(question)
        #expect(CardTitle.encodedBytes(card.text) <= CardQuestion.maximumTextBytes)
        #expect(card.text.hasSuffix("…"))
        let crowded = Question(
            id: QuestionID(String(repeating: "i", count: 64)), sid: SessionID(String(repeating: "\"", count: 199)),
            kind: .text, text: long, options: [], createdAt: 0, expiresAt: nil)
        let fitted = CardQuestion(crowded)
        let used = CardTitle.encodedBytes(fitted.id.rawValue) + CardTitle.encodedBytes(fitted.sid.rawValue)
            + CardTitle.encodedBytes(fitted.text)
        #expect(used <= CardQuestion.maximumQuestionBytes)
    }

    @Test("The words are one field: the wordless copy keeps the id, kind and buttons")
    func wordless() {
        let card = CardQuestion(id: "q", sid: "s", kind: .confirm, text: "secret", buttons: ["Allow", "Deny"])
        #expect(card.wordless == CardQuestion(id: "q", sid: "s", kind: .confirm, text: "", buttons: ["Allow", "Deny"]))
    }

    @Test("A state without a question has no question key; one with it round-trips; old JSON still decodes")
    func wire() throws {
        let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ContentState(working: 1))) as? [String: Any]
        #expect(plain?["question"] == nil)
        let state = ContentState(
            needsInput: 1, question: CardQuestion(id: "q", sid: "s", kind: .confirm, text: "Go?", buttons: ["Allow", "Deny"]))
        #expect(try JSONDecoder().decode(ContentState.self, from: JSONEncoder().encode(state)) == state)
        let partial = try JSONDecoder().decode(ContentState.self, from: Data(#"{"question":{"id":"q"}}"#.utf8))
        #expect(partial.question == CardQuestion(id: "q", sid: "", kind: .text, text: "", buttons: []))
    }
}

/// Where the question fits on each surface (issue 14.4).
@Suite struct SurfaceQuestionTests {
    static let confirm = CardQuestion(id: "q", sid: "b", kind: .confirm, text: "Deploy?", buttons: ["Allow", "Deny"])
    static let state = ContentState(
        working: 2, needsInput: 2,
        rows: [.fixture("a", state: .needsInput), .fixture("b", state: .needsInput), .fixture("c")], more: 1,
        question: confirm)

    @Test("Lock screen: the question and its buttons take two rows' room; the rows left fold into More")
    func lockScreen() {
        let layout = SurfaceLayout(Self.state, on: .lockScreen)
        #expect(layout.question == Self.confirm)
        #expect(layout.showsQuestionButtons)
        #expect(layout.rows.map(\.sid) == ["a"])
        #expect(layout.overflow == 3)
        #expect(layout.opensSession == "b")
        #expect(layout.questionLine == "Deploy?")
    }

    @Test("A question without buttons takes one row on the lock screen")
    func lockScreenText() {
        var state = Self.state
        state.question = CardQuestion(id: "q", sid: "a", kind: .text, text: "Name?", buttons: [])
        let layout = SurfaceLayout(state, on: .lockScreen)
        #expect(!layout.showsQuestionButtons)
        #expect(layout.rows.map(\.sid) == ["a", "b"])
    }

    @Test("Expanded island: the words, no buttons, one row; compact and minimal: no words at all")
    func island() {
        let expanded = SurfaceLayout(Self.state, on: .islandExpanded)
        #expect(expanded.question == Self.confirm && !expanded.showsQuestionButtons)
        #expect(expanded.rows.map(\.sid) == ["a"])
        for surface in [CardSurface.islandCompact, .islandMinimal] {
            let layout = SurfaceLayout(Self.state, on: surface)
            #expect(layout.question == nil && layout.questionLine == nil)
            #expect(layout.opensSession == "b")
        }
    }

    @Test("A privacy card (words blanked) says what kind of answer it needs and keeps its buttons")
    func wordlessLine() {
        var state = Self.state
        state.question = Self.confirm.wordless
        let layout = SurfaceLayout(state, on: .lockScreen)
        #expect(layout.questionLine == "A session asks for your go-ahead")
        #expect(layout.showsQuestionButtons)
    }

    @Test("Without a question, tapping opens the first row's session, and nothing changes for the rows")
    func noQuestion() {
        var state = Self.state
        state.question = nil
        let layout = SurfaceLayout(state, on: .lockScreen)
        #expect(layout.opensSession == "a")
        #expect(layout.rows.count == 3)
        #expect(SurfaceLayout(ContentState(), on: .lockScreen).opensSession == nil)
    }
}
