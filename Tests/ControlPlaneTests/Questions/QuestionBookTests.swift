import ControlPlane
import FleetCore
import Testing

/// The question lifecycle as a pure value: prompts in, effects out.
@Suite struct QuestionBookTests {
    static func permission(_ id: String, expiresAt: Double? = nil) -> Prompt {
        Prompt(id: id, kind: .permission, text: "Bash: rm -rf build", expiresAt: expiresAt)
    }

    static func kinds(_ effects: [QuestionEffect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .save(let question): "save \(question.id) \(question.state)"
            case .adopted(let question): "adopted \(question.id) \(question.state)"
            case .forget(let ids): "forget \(ids.count)"
            case .alert(let question): "alert \(question.id)"
            case .withdraw(let question): "withdraw \(question.id)"
            case .resolved(let question): "resolved \(question.id)"
            case .log(let line): "log \(line.event.rawValue)"
            }
        }
    }

    @Test("Each prompt kind maps to the contract's question kind and options", arguments: [
        (Prompt(id: "q", kind: .permission, text: "t"), Question.Kind.confirm, ["Allow", "Deny"]),
        (Prompt(id: "q", kind: .plan, text: "t"), .confirm, ["Approve", "Keep planning"]),
        (Prompt(id: "q", kind: .question, text: "t", options: ["A", "B"]), .choice, ["A", "B"]),
        (Prompt(id: "q", kind: .question, text: "t"), .text, []),
    ])
    func mapping(prompt: Prompt, kind: Question.Kind, options: [String]) {
        let question = Question.asked(by: prompt, in: "s1", at: 10, defaultLifetime: 600)
        #expect(question?.kind == kind)
        #expect(question?.options == options)
        #expect(question?.expiresAt == 610)
    }

    @Test("A sign-in prompt, a prompt without an id and an id no collapse id can carry ask nothing")
    func notAnswerable() {
        let long = String(repeating: "x", count: Question.maximumIDBytes + 1)
        for prompt in [
            Prompt(id: "q", kind: .signin, text: "t"), Prompt(kind: .permission, text: "t"),
            Prompt(id: long, kind: .permission, text: "t"), Prompt(id: "a/b", kind: .permission, text: "t"),
        ] {
            var book = QuestionBook()
            #expect(book.promptReported("s1", prompt, at: 10).isEmpty)
            #expect(book.list().isEmpty)
        }
    }

    @Test("A new prompt with an id is saved and alerted once; the same prompt again asks nothing")
    func newQuestion() {
        var book = QuestionBook()
        #expect(Self.kinds(book.promptReported("s1", Self.permission("q1"), at: 10)) == ["save q1 pending", "alert q1"])
        #expect(book.promptReported("s1", Self.permission("q1"), at: 11).isEmpty)
        #expect(book["q1"]?.state == .pending)
    }

    @Test("The first answer wins; a second is refused with the question as it stands")
    func firstAnswerWins() {
        var book = QuestionBook()
        _ = book.promptReported("s1", Self.permission("q1"), at: 10)
        guard case .answered(let question, let effects) = book.answer("q1", "Allow", by: "phone-a", at: 12) else {
            Issue.record("the first answer did not win")
            return
        }
        #expect(question.answer == "Allow")
        #expect(question.answeredBy == "phone-a")
        #expect(Self.kinds(effects) == ["save q1 answered", "resolved q1", "withdraw q1", "log question-answered"])
        guard case .notPending(let second, let none) = book.answer("q1", "Deny", by: "phone-b", at: 12) else {
            Issue.record("the second answer was not refused")
            return
        }
        #expect(second.answer == "Allow")
        #expect(none.isEmpty)
    }

    @Test("An answer that is not an option changes nothing")
    func notAnOption() {
        var book = QuestionBook()
        _ = book.promptReported("s1", Self.permission("q1"), at: 10)
        let before = book
        guard case .notAccepted = book.answer("q1", "Maybe", by: nil, at: 11) else {
            Issue.record("a wrong option was taken")
            return
        }
        #expect(book == before)
        #expect(book.answer("nope", "Allow", by: nil, at: 11) == .unknown)
    }

    @Test("Always allow is taken only where the permission prompt offered it")
    func alwaysAllow() {
        var plain = QuestionBook()
        _ = plain.promptReported("s1", Self.permission("q1"), at: 10)
        guard case .notAccepted = plain.answer("q1", Question.alwaysAllowAnswer, by: nil, at: 11) else {
            Issue.record("always allow was taken though not offered")
            return
        }
        var offered = QuestionBook()
        var prompt = Self.permission("q2")
        prompt.canAlwaysAllow = true
        _ = offered.promptReported("s1", prompt, at: 10)
        guard case .answered(let question, _) = offered.answer("q2", Question.alwaysAllowAnswer, by: nil, at: 11) else {
            Issue.record("always allow was refused though offered")
            return
        }
        #expect(question.answer == Question.alwaysAllowAnswer)
    }

    @Test("A prompt that clears or changes before an answer cancels the question, answered at the terminal")
    func cancelledAtTerminal() {
        var book = QuestionBook()
        _ = book.promptReported("s1", Self.permission("q1"), at: 10)
        let effects = book.promptReported("s1", Self.permission("q2"), at: 11)
        #expect(Self.kinds(effects) == [
            "save q1 cancelled", "resolved q1", "withdraw q1", "log question-cancelled", "save q2 pending", "alert q2",
        ])
        #expect(book["q1"]?.answeredBy == Question.answeredAtTerminal)
        _ = book.promptReported("s1", nil, at: 12)
        #expect(book["q2"]?.state == .cancelled)
    }

    @Test("A deleted session cancels its question without claiming the terminal answered")
    func sessionGone() {
        var book = QuestionBook()
        _ = book.promptReported("s1", Self.permission("q1"), at: 10)
        _ = book.promptReported("s1", nil, isSessionGone: true, at: 11)
        #expect(book["q1"]?.state == .cancelled)
        #expect(book["q1"]?.answeredBy == nil)
    }

    @Test("A question expires at its expiry, not a moment before, and then takes no answer")
    func expiry() {
        var book = QuestionBook()
        _ = book.promptReported("s1", Self.permission("q1", expiresAt: 20), at: 10)
        #expect(book.expire(at: 19.999).isEmpty)
        #expect(book.nextExpiry == 20)
        guard case .notPending(let question, let effects) = book.answer("q1", "Allow", by: nil, at: 20) else {
            Issue.record("an answer at the expiry was taken")
            return
        }
        #expect(question.state == .expired)
        #expect(Self.kinds(effects) == ["save q1 expired", "resolved q1", "withdraw q1", "log question-expired"])
        #expect(book.expire(at: 30).isEmpty)
    }

    @Test("On load, a pending question whose prompt is gone is cancelled and one past expiry expires")
    func load() {
        let asked = { (id: String, expiresAt: Double) in
            Question.asked(by: Self.permission(id, expiresAt: expiresAt), in: SessionID(id), at: 1, defaultLifetime: 600)!
        }
        var book = QuestionBook()
        let sessions: [SessionID: SessionReport] = [
            "keep": SessionReport(prompt: Self.permission("keep")), "late": SessionReport(prompt: Self.permission("late")),
            "gone": SessionReport(),
        ]
        _ = book.load([asked("keep", 100), asked("late", 40), asked("gone", 100)], sessions: sessions, at: 50)
        #expect(book["keep"]?.state == .pending)
        #expect(book["late"]?.state == .expired)
        #expect(book["gone"]?.state == .cancelled)
        // The kept question is still its session's: clearing the prompt cancels it.
        _ = book.promptReported("keep", nil, at: 51)
        #expect(book["keep"]?.state == .cancelled)
    }

    @Test("Past the kept number, the oldest resolved questions are forgotten")
    func bounded() {
        var book = QuestionBook()
        var forgotten = 0
        for index in 0...QuestionBook.resolvedLimit {
            let effects = book.promptReported("s1", Self.permission("q\(index)"), at: Double(index))
                + book.promptReported("s1", nil, at: Double(index))
            forgotten += effects.filter { if case .forget = $0 { true } else { false } }.count
        }
        #expect(forgotten == 1)
        #expect(book.list().count == QuestionBook.resolvedLimit)
        #expect(book["q0"] == nil)
    }
}
