import ControlPlane
import Dashboard
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// Issue 14.6: the dashboard lists pending questions and answers them as a second device would.
@Suite struct DashboardQuestionsTests {
    static let now = FixedSource.now

    static func question(_ id: QuestionID, sid: SessionID, kind: Question.Kind, options: [String], at: UnixTime,
                         state: Question.State = .pending, canAlwaysAllow: Bool = false) -> Question {
        Question(id: id, sid: sid, kind: kind, text: "Text of \(id)", options: options, state: state, createdAt: at,
                 expiresAt: at + 600, canAlwaysAllow: canAlwaysAllow)
    }

    @Test("Pending questions are listed oldest first with their session's title and the answers to offer")
    func listed() {
        let source = FixedSource.busyPhone()
        let questions = [
            Self.question("late", sid: "z", kind: .text, options: [], at: Self.now - 10),
            Self.question("early", sid: "q2", kind: .confirm, options: Question.permissionOptions, at: Self.now - 130,
                          canAlwaysAllow: true),
            Self.question("done", sid: "z", kind: .choice, options: ["a"], at: Self.now - 500, state: .answered),
        ]
        let snapshot = DashboardSnapshot(
            state: source.state, sessions: source.sessionList, tokens: source.tokens, questions: questions, now: Self.now)
        #expect(snapshot.questions.map(\.id) == ["early", "late"])
        #expect(snapshot.questions[0].answers == ["Allow", "Always allow", "Deny"])
        #expect(snapshot.questions[0].askedLabel == "2m" && snapshot.questions[0].expiresInSeconds == 470)
        #expect(snapshot.questions[1].title == "Which database?" && snapshot.questions[1].takesText)
        #expect(snapshot.questions[0].title == "")
    }

    @Test("The card's question is drawn where it fits: its line and the Lock Screen's buttons")
    func cardQuestion() throws {
        let state = ContentState(
            needsInput: 1, rows: [Row(sid: "s", title: "Deploy", state: .needsInput, since: Self.now)],
            question: CardQuestion(id: "q", sid: "s", kind: .confirm, text: "Deploy?", buttons: ["Allow", "Deny"]))
        let lock = SurfaceView(SurfaceLayout(state, on: .lockScreen), now: Self.now)
        #expect(lock.questionLine == "Deploy?" && lock.questionButtons == ["Allow", "Deny"] && lock.opensSession == "s")
        let expanded = SurfaceView(SurfaceLayout(state, on: .islandExpanded), now: Self.now)
        #expect(expanded.questionLine == "Deploy?" && expanded.questionButtons.isEmpty)
        #expect(SurfaceView(SurfaceLayout(state, on: .islandCompact), now: Self.now).questionLine == nil)
    }

    @Test("The script answers with the server's own CSRF names and device id, never spelled by hand")
    func scriptUsesServerNames() async throws {
        let routes = DashboardRoutes(source: FixedSource.busyPhone(), now: { Self.now })
        let response = await routes.respond(to: HTTPRequest(method: "GET", path: "/dashboard.js"))
        let script = String(decoding: try #require(response.bodyData), as: UTF8.self)
        #expect(script.contains(#"csrfCookie: "\#(Authenticator.csrfCookieName)", csrfHeader: "\#(Authenticator.csrfHeader)""#))
        #expect(script.contains(#"const DASHBOARD_DEVICE = "\#(DashboardSnapshot.answeringDeviceID)";"#))
        #expect(script.contains("[AUTH.csrfHeader]: cookieValue(AUTH.csrfCookie)"))
        // Only the generated constants spell them.
        #expect(script.components(separatedBy: Authenticator.csrfHeader).count == 2)
    }

    @Test("A signed-in page answers with its cookie and CSRF header; without the header it is refused; a second answer is a 409")
    func answeredFromThePage() async throws {
        let service = ControlPlaneService(
            .init(store: InMemoryStore(), gateway: UnusedGateway(), decisionLog: InMemoryDecisionLog()))
        try await service.start()
        let router = APIRouter(
            service: service, authenticator: Authenticator(token: "secret", loginCode: nil),
            dashboard: DashboardRoutes(source: service, now: { Self.now }), signInPage: SignInPage())
        let bearer = ["Authorization": "Bearer secret", "Content-Type": "application/json"]
        let report = #"{"title":"Deploy","busy":true,"prompt":{"id":"q-1","kind":"permission","text":"Deploy?"}}"#
        #expect(await router.respond(to: HTTPRequest(method: "PUT", path: "/api/sessions/s", headers: bearer, body: Data(report.utf8))).status == 200)

        let signIn = await router.respond(to: HTTPRequest(
            method: "POST", path: "/login", headers: ["Content-Type": "application/json"], body: Data(#"{"token":"secret"}"#.utf8)))
        let cookies = signIn.headers.filter { $0.name == "Set-Cookie" }.map { $0.value.components(separatedBy: ";")[0] }
        let csrf = try #require(cookies.first { $0.hasPrefix(Authenticator.csrfCookieName + "=") }?.split(separator: "=").last)
        let cookieHeader = cookies.joined(separator: "; ")

        let snapshot = await router.respond(to: HTTPRequest(method: "GET", path: "/dashboard/snapshot", headers: ["Cookie": cookieHeader]))
        let snapshotBody = try #require(snapshot.bodyData)
        let listed = try #require(try JSONSerialization.jsonObject(with: snapshotBody) as? [String: Any])
        #expect((listed["questions"] as? [[String: Any]])?.map { $0["id"] as? String } == ["q-1"])

        func answer(_ text: String, csrf: String?) async -> HTTPResponse {
            var headers = ["Cookie": cookieHeader, "Content-Type": "application/json"]
            if let csrf { headers[Authenticator.csrfHeader] = csrf }
            let body = #"{"answer":"\#(text)","deviceId":"\#(DashboardSnapshot.answeringDeviceID)"}"#
            return await router.respond(to: HTTPRequest(method: "POST", path: "/api/questions/q-1/answer", headers: headers, body: Data(body.utf8)))
        }
        #expect(await answer("Allow", csrf: nil).status == 403)
        let taken = await answer("Allow", csrf: String(csrf))
        #expect(taken.status == 200)
        let question = try JSONDecoder().decode(Question.self, from: try #require(taken.bodyData))
        #expect(question.answeredBy == "dashboard" && question.answer == "Allow")
        #expect(await answer("Deny", csrf: String(csrf)).status == 409)
    }
}
