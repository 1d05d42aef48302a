import FleetApp
import FleetCore
import Foundation
import HTTPTypes

/// Questions in the demo: the alert reaching the phone, the person answering it there, the withdrawal,
/// and the agent that waited for the answer going on.
extension DemoWorld {
    /// The demo phone's APNs device token (fixed: iOS gives an install the same one at every launch).
    public static let alertToken = PushToken(hex: "de30" + String(repeating: "0a", count: 30))!

    /// A notification reached the phone: an alert goes on the lock screen; a background push wakes the
    /// app (launching it in the background if iOS had ended it) to withdraw the alert it names.
    func receive(_ notification: ReceivedNotification) {
        switch notification {
        case .alert(let payload, let title, let body):
            // The Notification Service Extension's step: a sealed alert opens with the phone's own key, and
            // the question's category gets the opened options as its buttons.
            let userInfo = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] ?? [:]
            let served = ServicedAlert.serve(userInfo, keyring: phone.sealKeys)
            // What a tapped button hands the app: the notification's `userInfo` as the extension left it.
            guard let tapped = try? JSONSerialization.data(withJSONObject: served.userInfo(userInfo)),
                let alert = QuestionAlert(payload: tapped)
            else { return }
            let shown = served.shown ?? OpenedAlert(title: title, body: body)
            // A placeholder keeps the kind's fixed category, the one the app registered at launch.
            let category = served.category ?? QuestionCategories.fixedCategory(of: alert.kind)
            phone.alerts.deliver(alert, title: shown.title, body: shown.body, category: category)
            let buttons = category.actions.map { "[\($0.title)]" }.joined(separator: " ")
            let how = served.shown != nil ? "sealed alert, opened with the phone's key" : "alert"
            let placeholder = served.placeholderReason.map { " (kept its placeholder: \($0.rawValue))" } ?? ""
            say(elapsed, "phone", "\(how)\(placeholder): \(shown.title): \(shown.body)  \(buttons)")
        case .background(let payload):
            if phone.app == nil || phone.isSuspended { wakeInBackground() }
            let before = Set(phone.alerts.delivered.map(\.identifier))
            guard phone.app?.backgroundPushReceived(payload) == true else { return }
            let removed = before.subtracting(phone.alerts.delivered.map(\.identifier))
            if !removed.isEmpty {
                say(elapsed, "phone", "question.updated push: the alert for \(removed.sorted().joined(separator: ", ")) is withdrawn")
            }
        }
    }

    /// The person taps `answer` on the session's alert: iOS runs the app in the background to handle the
    /// action, and the app posts the answer (the same path as the real phone's notification delegate).
    func answerFromPhone(_ sid: SessionID, _ answer: String, at second: Double) {
        guard let delivered = phone.alerts.delivered.last(where: { $0.alert.sid == sid }) else {
            say(second, "phone", "no alert from \(sid) on the lock screen to answer")
            return
        }
        guard let action = delivered.category.actions.first(where: { $0.title == answer }) else {
            say(second, "phone", "the alert from \(sid) has no \(answer) button")
            return
        }
        if phone.app == nil || phone.isSuspended { wakeInBackground() }
        say(second, "you", "tap \(answer) on the alert from \(sid)")
        phone.app?.respond(to: QuestionResponse(alert: delivered.alert, action: .action(action.identifier, typedText: nil)))
    }

    /// Each agent whose question is no longer pending goes on: an answered one with the answer (its hook
    /// prints the decision and the prompt clears), a cancelled or expired one as it stands.
    func releaseAnsweredAgents() async {
        for (id, sid) in waitingAgents.sorted(by: { $0.key < $1.key }) {
            let reply = await api.respond(to: HTTPRequest(
                method: "GET", path: "/api/questions/\(id.rawValue)",
                headers: ["Authorization": "Bearer \(server.bearerToken)"]))
            guard reply.status == 200, let body = reply.bodyData,
                let question = try? JSONDecoder().decode(Question.self, from: body), question.state != .pending
            else { continue }
            waitingAgents[id] = nil
            guard question.state == .answered else { continue }
            say(elapsed, "agent", "\(sid) released: \(question.answer ?? "") (answered on \(question.answeredBy ?? "?")); it works on")
            if let request = HostReport.request(
                for: .answer(sid), ttlSeconds: schedule.hostTTL, bearerToken: server.bearerToken)
            {
                _ = await api.respond(to: request)
                if isAppOpen { phone.app?.refresh() }
            }
        }
        await sendCalls()
    }
}
