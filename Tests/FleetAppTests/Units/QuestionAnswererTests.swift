import FleetApp
import FleetCore
import Testing

/// Issue 14.5: an answer is posted once per question, retried while the network fails, never retried
/// after a 409, and a retry whose first post landed counts as answered.
@Suite struct QuestionAnswererTests {
    static let device: DeviceID = "phone-1"

    static func question(_ state: Question.State, answer: String? = nil, by: String? = nil) -> Question {
        Question(
            id: "q", sid: "s", kind: .confirm, text: "Go?", options: ["Allow", "Deny"], state: state, answer: answer,
            answeredBy: by, createdAt: 0, expiresAt: nil)
    }

    @Test("Answered: one post, the alert removed; a second tap on the same question posts nothing")
    func answeredOnce() {
        var answerer = QuestionAnswerer()
        #expect(answerer.answer("q", "Allow", sid: "s", at: 0) == [.post("q", answer: "Allow")])
        #expect(answerer.answer("q", "Deny", sid: "s", at: 0.1) == [])
        let effects = answerer.posted("q", .success(Self.question(.answered, answer: "Allow", by: "phone-1")), deviceID: Self.device, at: 0.2)
        #expect(effects == [.removeDeliveredAlert("q")])
        #expect(answerer.entries["q"]?.status == .answered)
        #expect(answerer.answer("q", "Allow", sid: "s", at: 1) == [])
    }

    @Test("A 409 naming someone else: the alert goes, the person is told, nothing is retried")
    func answeredElsewhere() {
        var answerer = QuestionAnswerer()
        _ = answerer.answer("q", "Allow", sid: "s", at: 0)
        let taken = Self.question(.answered, answer: "Deny", by: "phone-2")
        let effects = answerer.posted("q", .success(taken), deviceID: Self.device, at: 1)
        #expect(effects == [
            .removeDeliveredAlert("q"),
            .notify(AnswerNotice(questionId: "q", sid: "s", text: "Answered on another device first: Deny")),
        ])
        #expect(answerer.nextRetryAt == nil)
        #expect(answerer.retriesDue(at: 1_000) == [])
    }

    @Test("The network fails: retried after 1 s, then 2 s; the retry's 409 naming this device is success")
    func retriedUntilTaken() {
        var answerer = QuestionAnswerer()
        _ = answerer.answer("q", "Allow", sid: "s", at: 0)
        #expect(answerer.posted("q", .failure(.unreachable("offline")), deviceID: Self.device, at: 0.5) == [])
        #expect(answerer.nextRetryAt == 1.5)
        #expect(answerer.retriesDue(at: 1.49) == [])
        #expect(answerer.retriesDue(at: 1.5) == [.post("q", answer: "Allow")])
        #expect(answerer.posted("q", .failure(.rejected(status: 503, message: "")), deviceID: Self.device, at: 2) == [])
        #expect(answerer.nextRetryAt == 4)
        #expect(answerer.retriesDue(at: 4) == [.post("q", answer: "Allow")])
        // The first post had landed; its reply was lost. The retry meets our own answer.
        let ours = Self.question(.answered, answer: "Allow", by: "phone-1")
        #expect(answerer.posted("q", .success(ours), deviceID: Self.device, at: 4.1) == [.removeDeliveredAlert("q")])
        #expect(answerer.entries["q"]?.status == .answered)
    }

    @Test("A refused answer (400) is not retried and is explained; it may be answered again")
    func refused() {
        var answerer = QuestionAnswerer()
        _ = answerer.answer("q", "Maybe", sid: "s", at: 0)
        let effects = answerer.posted("q", .failure(.rejected(status: 400, message: "not an option")), deviceID: Self.device, at: 1)
        #expect(effects == [.notify(AnswerNotice(
            questionId: "q", sid: "s", text: "Your answer was not sent: the server answered 400: not an option"))])
        #expect(answerer.nextRetryAt == nil)
        #expect(answerer.answer("q", "Allow", sid: "s", at: 2) == [.post("q", answer: "Allow")])
    }

    @Test("Retrying stops at the limit, and the person is told")
    func retriesRunOut() {
        var answerer = QuestionAnswerer(backoff: RegistrationBackoff(initial: 1, maximum: 30), retryLimit: 60)
        _ = answerer.answer("q", "Allow", sid: "s", at: 0)
        var now = 0.0
        var told: [QuestionAnswerer.Effect] = []
        while told.isEmpty {
            told = answerer.posted("q", .failure(.unreachable("offline")), deviceID: Self.device, at: now)
            guard let next = answerer.nextRetryAt else { break }
            #expect(next < 60)
            now = next
            #expect(answerer.retriesDue(at: now) == [.post("q", answer: "Allow")])
        }
        #expect(told == [.notify(AnswerNotice(
            questionId: "q", sid: "s", text: "Your answer was not sent: the server could not be reached for 60 s"))])
    }

    @Test("A withdrawal push removes the alert", arguments: [Question.State.expired, .cancelled])
    func withdrawn(state: Question.State) {
        var answerer = QuestionAnswerer()
        #expect(answerer.questionSettled("q") == [.removeDeliveredAlert("q")])
        _ = answerer.answer("q", "Allow", sid: "s", at: 0)
        let effects = answerer.posted("q", .success(Self.question(state)), deviceID: Self.device, at: 1)
        #expect(effects.first == .removeDeliveredAlert("q"))
        #expect(effects.count == 2)
    }
}
