import APNs
import ControlPlane
import ControlPlaneTesting
import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// Issue 14.5 against the real control plane in process: the app registers its alert and widget tokens,
/// answers through the routes, and two phones answering at once end with one answer and one notice.
@Suite struct QuestionAnsweringTests {
    static let bearer = "questions-token-0123456789"
    static let alertToken = PushToken(hex: "aa" + String(repeating: "11", count: 31))!
    static let widgetToken = PushToken(hex: "bb" + String(repeating: "22", count: 31))!

    final class Rig {
        let router: APIRouter
        let client: HTTPHandlerControlPlaneClient
        let clock = VirtualClock(now: 1_764_400_000)
        var phones: [SimulatedPhone] = []

        init(phones names: [DeviceID]) async throws {
            let service = ControlPlaneService(.init(
                store: InMemoryStore(), gateway: ScriptedPushGateway.answeringEverything(status: 200),
                decisionLog: InMemoryDecisionLog(), wallClock: WallClock(now: { 1_764_400_000 })))
            try await service.start()
            router = APIRouter(service: service, authenticator: Authenticator(token: bearer, loginCode: nil))
            client = HTTPHandlerControlPlaneClient(router)
            let server = ServerProfile(name: "home", baseURL: "http://127.0.0.1:8766", bearerToken: bearer)
            phones = names.map { name in
                SimulatedPhone(
                    configuration: AppConfiguration(
                        deviceID: name, environment: .sandbox, servers: [server], defaultServerName: "home"),
                    clock: clock.wallClock)
            }
        }

        /// Carries every queued call of every phone to the server and back, until none is left; the calls
        /// queued at one moment all reach the server before any answer reaches a phone (a race).
        func deliverCalls() async {
            while phones.contains(where: { !$0.outbox.queued.isEmpty }) {
                var answers: [(SimulatedPhone, CallID, Result<ControlPlaneReply, ControlPlaneError>)] = []
                for phone in phones {
                    for sent in phone.outbox.takeQueued() {
                        do throws(ControlPlaneError) {
                            answers.append((phone, sent.id, .success(try await client.perform(sent.call, on: phone.configuration.servers[0]))))
                        } catch {
                            answers.append((phone, sent.id, .failure(error)))
                        }
                    }
                }
                for (phone, id, result) in answers { phone.answer(id, result) }
            }
        }

        func call(_ method: String, _ path: String, _ body: String = "") async -> HTTPResponse {
            await router.respond(to: HTTPRequest(
                method: method, path: path,
                headers: ["Authorization": "Bearer \(bearer)", "Content-Type": "application/json"], body: Data(body.utf8)))
        }

        func question(_ id: String) async throws -> Question {
            let body = try #require(await call("GET", "/api/questions/\(id)").bodyData)
            return try JSONDecoder().decode(Question.self, from: body)
        }
    }

    @Test("The app's PUT carries its alert and widget tokens, and a relaunch sends them again before iOS does")
    func tokensRegistered() async throws {
        let rig = try await Rig(phones: ["phone-1"])
        let phone = rig.phones[0]
        phone.launch(inForeground: true)
        phone.app?.alertTokenIssued(Self.alertToken)
        phone.app?.widgetTokenIssued(Self.widgetToken)
        await rig.deliverCalls()
        let body = try #require(await rig.call("GET", "/api/devices/phone-1").bodyData)
        let device = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(device["apnsToken"] as? String == "aa111111")
        #expect(device["widgetPushToken"] as? String == "bb222222")

        phone.terminate()
        phone.launch(inForeground: false)
        let put = phone.outbox.queued.compactMap { sent -> DeviceRegistration? in
            if case .putDevice(_, let registration) = sent.call { registration } else { nil }
        }
        #expect(put.first?.apnsToken == Self.alertToken)
        #expect(put.first?.widgetPushToken == Self.widgetToken)
    }

    @Test("An Allow from the alert is posted, taken, and its alert removed; a withdrawal push removes another's")
    func answeredFromTheAlert() async throws {
        let rig = try await Rig(phones: ["phone-1"])
        let phone = rig.phones[0]
        _ = await rig.call("PUT", "/api/sessions/s", #"{"title":"Deploy","busy":true,"prompt":{"id":"q-1","kind":"permission","text":"Deploy?"}}"#)
        _ = await rig.call("PUT", "/api/sessions/t", #"{"title":"Pick","busy":true,"prompt":{"id":"q-2","kind":"question","text":"Which?","options":["a","b"]}}"#)
        phone.launch(inForeground: false)
        await rig.deliverCalls()
        let alert = QuestionAlert(try await rig.question("q-1"))
        phone.alerts.deliver(alert, title: "Deploy", body: "Deploy?")
        phone.alerts.deliver(QuestionAlert(try await rig.question("q-2")), title: "Pick", body: "Which?")

        phone.app?.respond(to: QuestionResponse(alert: alert, action: .action("LFG_ANSWER_OPTION_0", typedText: nil)))
        await rig.deliverCalls()
        let answered = try await rig.question("q-1")
        #expect(answered.state == .answered && answered.answer == "Allow" && answered.answeredBy == "phone-1")
        #expect(phone.alerts.delivered.map(\.identifier) == ["q-2"])

        let withdrawal = #"{"aps":{"content-available":1},"event":"question.updated","questionId":"q-2"}"#
        #expect(phone.app?.backgroundPushReceived(Data(withdrawal.utf8)) == true)
        #expect(phone.alerts.delivered.isEmpty)
        #expect(phone.alerts.notices.isEmpty)
    }

    @Test("A question streamed on the live connection: pending keeps its alert, settled removes it")
    func streamedQuestion() async throws {
        let rig = try await Rig(phones: ["phone-1"])
        let phone = rig.phones[0]
        _ = await rig.call("PUT", "/api/sessions/s", #"{"title":"Deploy","busy":true,"prompt":{"id":"q-1","kind":"permission","text":"Deploy?"}}"#)
        phone.launch(inForeground: true)
        await rig.deliverCalls()
        let pending = try await rig.question("q-1")
        phone.alerts.deliver(QuestionAlert(pending), title: "Deploy", body: "Deploy?")
        phone.app?.questionStreamed(pending)
        #expect(phone.alerts.delivered.map(\.identifier) == ["q-1"])
        _ = await rig.call("PUT", "/api/sessions/s", #"{"title":"Deploy","busy":true}"#)
        phone.app?.questionStreamed(try await rig.question("q-1"))
        #expect(phone.alerts.delivered.isEmpty)
        #expect(phone.alerts.removals == ["q-1"])
    }

    @Test("Tapping the alert opens its session and posts nothing; an unusable reply is explained, not sent")
    func openAndUnusable() async throws {
        let rig = try await Rig(phones: ["phone-1"])
        let phone = rig.phones[0]
        phone.launch(inForeground: true)
        await rig.deliverCalls()
        let alert = QuestionAlert(questionId: "q-1", sid: "s", kind: .choice, options: ["a", "b"])
        #expect(phone.app?.respond(to: QuestionResponse(alert: alert, action: .opened)) == .session("s"))
        #expect(phone.app?.respond(to: QuestionResponse(alert: alert, action: .action("LFG_ANSWER_TEXT", typedText: "c"))) == nil)
        #expect(phone.alerts.notices.map(\.text) == ["'c' is none of the options (a, b); reply with one or its number"])
        #expect(!phone.outbox.queued.contains { if case .answerQuestion = $0.call { true } else { false } })
    }

    @Test("Two phones answer at once: one wins, the other is told who was first and does not retry")
    func twoPhonesAtOnce() async throws {
        let rig = try await Rig(phones: ["phone-1", "phone-2"])
        _ = await rig.call("PUT", "/api/sessions/s", #"{"title":"Deploy","busy":true,"prompt":{"id":"q-1","kind":"permission","text":"Deploy?"}}"#)
        for phone in rig.phones { phone.launch(inForeground: false) }
        await rig.deliverCalls()
        let alert = QuestionAlert(try await rig.question("q-1"))
        for phone in rig.phones { phone.alerts.deliver(alert, title: "Deploy", body: "Deploy?") }

        rig.phones[0].app?.answerQuestion("q-1", with: "Allow", sid: "s")
        rig.phones[1].app?.answerQuestion("q-1", with: "Deny", sid: "s")
        await rig.deliverCalls()

        let question = try await rig.question("q-1")
        #expect(question.answer == "Allow" && question.answeredBy == "phone-1")
        #expect(rig.phones[0].alerts.notices.isEmpty)
        #expect(rig.phones[1].alerts.notices.map(\.text) == ["Answered on another device first: Allow"])
        #expect(rig.phones.allSatisfy { $0.alerts.delivered.isEmpty })
        #expect(rig.phones[1].app?.nextTimerDue == nil)
    }
}
