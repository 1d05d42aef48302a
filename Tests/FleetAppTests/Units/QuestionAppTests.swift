import FleetApp
import FleetCore
import Foundation
import Testing

/// Issue 14.5, the app library's pure parts: links, categories, responses.
@Suite struct QuestionAppTests {
    static let choice = QuestionAlert(
        questionId: "q-1", sid: "s-1", kind: .choice, options: ["Postgres", "SQLite", "MySQL", "Redis", "None"])
    static let permission = QuestionAlert(
        questionId: "q-2", sid: "s-2", kind: .confirm, options: Question.permissionOptions, canAlwaysAllow: true)

    @Test("A session link round-trips any sid; other schemes and places are not the app's links")
    func appLinks() throws {
        for sid in ["a", "9F2C-11", "with space/and?query#frag", "ünï"] {
            let link = AppLink.session(SessionID(sid))
            #expect(AppLink(url: link.url) == link)
        }
        #expect(AppLink.home.url.absoluteString == "lfg://")
        #expect(AppLink(url: AppLink.home.url) == .home)
        #expect(AppLink(url: try #require(URL(string: "https://session/a"))) == nil)
        #expect(AppLink(url: try #require(URL(string: "lfg://elsewhere/a"))) == nil)
        #expect(AppLink(url: try #require(URL(string: "lfg://session/"))) == nil)
        let state = ContentState(needsInput: 1, rows: [Row(sid: "r", title: "", state: .needsInput, since: 0)])
        #expect(AppLink(opening: SurfaceLayout(state, on: .lockScreen)) == .session("r"))
    }

    @Test("Three categories are registered, one per kind, named as the alerts name them")
    func registeredCategories() {
        let categories = QuestionCategories.registered
        #expect(categories.map(\.identifier) == ["LFG_QUESTION_CONFIRM", "LFG_QUESTION_CHOICE", "LFG_QUESTION_TEXT"])
        #expect(categories[0].actions.map(\.title) == ["Allow", "Deny"])
        #expect(categories[0].actions.map(\.isDestructive) == [false, true])
        #expect(categories[1].actions.map(\.identifier) == [QuestionCategories.textAction])
        #expect(categories[2].actions.first?.textInput != nil)
    }

    @Test("A question's own category: up to four option buttons (then a reply field), Always allow where offered")
    func perQuestionCategory() {
        let choice = QuestionCategories.category(for: Self.choice)
        #expect(choice.identifier == "LFG_QUESTION_CHOICE.q-1")
        #expect(choice.actions.map(\.title) == ["Postgres", "SQLite", "MySQL", "Redis", "Reply"])
        let permission = QuestionCategories.category(for: Self.permission)
        #expect(permission.actions.map(\.title) == ["Allow", "Always allow", "Deny"])
        let plan = QuestionCategories.category(for: QuestionAlert(
            questionId: "q-3", sid: "s", kind: .confirm, options: Question.planOptions))
        #expect(plan.actions.map(\.title) == ["Approve", "Keep planning"])
    }

    @Test("Registering one category per alert keeps the fixed three and the newest sixteen")
    func categoriesStayBounded() {
        var registered = QuestionCategories.registered
        for index in 0..<40 {
            let alert = QuestionAlert(questionId: QuestionID("q\(index)"), sid: "s", kind: .choice, options: ["a"])
            registered = QuestionCategories.merging(QuestionCategories.category(for: alert), into: registered)
        }
        #expect(registered.count == 3 + QuestionCategories.retainedQuestionCategories)
        #expect(registered[3].identifier == "LFG_QUESTION_CHOICE.q39")
        #expect(registered.last?.identifier == "LFG_QUESTION_CHOICE.q24")
    }

    @Test("Each response means an answer, a place to open, nothing, or a reason nothing was sent",
        arguments: [
            (choice, QuestionResponse.Action.action("LFG_ANSWER_OPTION_1", typedText: nil), QuestionResponse.Meaning.answer("q-1", "SQLite")),
            (choice, .action("LFG_ANSWER_TEXT", typedText: " 5 "), .answer("q-1", "None")),
            (choice, .action("LFG_ANSWER_TEXT", typedText: "redis"), .answer("q-1", "Redis")),
            (choice, .action("LFG_ANSWER_OPTION_7", typedText: nil), .unusable("that option is not in this question; open the app to answer")),
            (choice, .action("LFG_ANSWER_TEXT", typedText: "Oracle"), .unusable("'Oracle' is none of the options (Postgres, SQLite, MySQL, Redis, None); reply with one or its number")),
            (choice, .opened, .open(.session("s-1"))),
            (choice, .dismissed, .nothing),
            (permission, .action("LFG_ANSWER_ALWAYS", typedText: nil), .answer("q-2", "Always allow")),
            (permission, .action("LFG_ANSWER_OPTION_1", typedText: nil), .answer("q-2", "Deny")),
            (QuestionAlert(questionId: "q-4", sid: "s", kind: .text, options: []), .action("LFG_ANSWER_TEXT", typedText: "Use a queue"), .answer("q-4", "Use a queue")),
            (QuestionAlert(questionId: "q-4", sid: "s", kind: .text, options: []), .action("LFG_ANSWER_TEXT", typedText: "  "), .unusable("the reply was empty; nothing was sent")),
            (QuestionAlert(questionId: "q-5", sid: "s", kind: .confirm, options: Question.permissionOptions), .action("LFG_ANSWER_ALWAYS", typedText: nil), .unusable("this question cannot be allowed for good")),
        ])
    func responses(alert: QuestionAlert, action: QuestionResponse.Action, meaning: QuestionResponse.Meaning) {
        #expect(QuestionResponse(alert: alert, action: action).meaning == meaning)
    }

    @Test("The alert is read from the push as the server writes it; other pushes are not question alerts")
    func readingPushes() throws {
        let alert = #"{"aps":{"alert":{"title":"t","body":"b"},"category":"LFG_QUESTION_CONFIRM"},"questionId":"q-9","sid":"s","kind":"confirm","options":["Allow","Deny"],"canAlwaysAllow":true}"#
        #expect(QuestionAlert(payload: Data(alert.utf8)) == QuestionAlert(
            questionId: "q-9", sid: "s", kind: .confirm, options: ["Allow", "Deny"], canAlwaysAllow: true))
        #expect(QuestionAlert(payload: Data(#"{"aps":{"content-available":1}}"#.utf8)) == nil)
        #expect(QuestionAlert(payload: Data(#"{"questionId":"","sid":"s"}"#.utf8)) == nil)
        let updated = #"{"aps":{"content-available":1},"event":"question.updated","questionId":"q-9"}"#
        #expect(QuestionUpdatedPush(payload: Data(updated.utf8)) == QuestionUpdatedPush(questionId: "q-9"))
        #expect(QuestionUpdatedPush(payload: Data(#"{"event":"other","questionId":"q-9"}"#.utf8)) == nil)
    }

    @Test("The answer call posts the answer and the device id; a 409 is the question as it stands")
    func answerCall() throws {
        let call = ControlPlaneCall.answerQuestion("q 1", answer: "Allow", deviceID: "phone-1")
        #expect(call.method == "POST")
        #expect(call.path == "/api/questions/q%201/answer")
        #expect(call.body == ["answer": .string("Allow"), "deviceId": .string("phone-1")])
        let question = Question(
            id: "q 1", sid: "s", kind: .confirm, text: "t", options: ["Allow", "Deny"], state: .answered,
            answer: "Deny", answeredBy: "phone-2", createdAt: 1, expiresAt: nil)
        let body = try JSONEncoder().encode(question)
        #expect(try call.reply(status: 409, body: body) == .question(question))
        #expect(try call.reply(status: 200, body: body) == .question(question))
        #expect(throws: ControlPlaneError.rejected(status: 400, message: "no error text")) {
            try call.reply(status: 400, body: Data())
        }
    }

    @Test("The device registration carries the alert and widget tokens once known")
    func registrationTokens() throws {
        let alert = try #require(PushToken(hex: "ab" + String(repeating: "01", count: 31)))
        let widget = try #require(PushToken(hex: "cd" + String(repeating: "02", count: 31)))
        let call = ControlPlaneCall.putDevice(
            "phone-1", DeviceRegistration(env: .sandbox, apnsToken: alert, widgetPushToken: widget))
        #expect(call.body?["apnsToken"] == .string(alert.hex))
        #expect(call.body?["widgetPushToken"] == .string(widget.hex))
        #expect(ControlPlaneCall.putDevice("phone-1", DeviceRegistration(env: .sandbox)).body?["apnsToken"] == nil)
    }
}
