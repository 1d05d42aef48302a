import FleetCore
import Foundation

extension FleetAppEngine {
    /// Where the alert token is kept between launches, so the launch's `PUT /api/devices` carries it before
    /// iOS hands it over again (the server replaces the whole device on each PUT).
    public static let alertTokenKey = "lfg.questions.apnsToken"
    /// Where the widget push token is kept between launches.
    public static let widgetTokenKey = "lfg.widgets.pushToken"

    // MARK: Tokens

    /// iOS handed over the device's APNs token (`didRegisterForRemoteNotificationsWithDeviceToken`): kept,
    /// and sent to every server that hears about this device when it is new.
    public func alertTokenIssued(_ token: PushToken) {
        guard token != tokens.alert else { return }
        tokens.alert = token
        storage.set(token.hex, forKey: Self.alertTokenKey)
        sendDeviceRegistration()
    }

    /// WidgetKit handed over the widget push token.
    public func widgetTokenIssued(_ token: PushToken) {
        guard token != tokens.widget else { return }
        tokens.widget = token
        storage.set(token.hex, forKey: Self.widgetTokenKey)
        sendDeviceRegistration()
    }

    func restoreTokens() {
        tokens.alert = storage.string(forKey: Self.alertTokenKey).flatMap(PushToken.init(hex:))
        tokens.widget = storage.string(forKey: Self.widgetTokenKey).flatMap(PushToken.init(hex:))
    }

    // MARK: Answers

    /// The person answered question `id` (a button on the card, a field in the app): posted once to the
    /// default server, retried while it cannot be reached; a second answer to the same question is ignored.
    public func answerQuestion(_ id: QuestionID, with answer: String, sid: SessionID? = nil) {
        carryOut(answerer.answer(id, answer, sid: sid, at: clock.now))
    }

    /// The person acted on a question's alert. Returns the place to open, if the response asks for one;
    /// an answer is posted (``answerQuestion(_:with:sid:)``), an unusable reply is explained in a notice.
    @discardableResult
    public func respond(to response: QuestionResponse) -> AppLink? {
        switch response.meaning {
        case .answer(let id, let answer):
            answerQuestion(id, with: answer, sid: response.alert.sid)
            return nil
        case .open(let link):
            return link
        case .nothing:
            return nil
        case .unusable(let why):
            alerts.show(AnswerNotice(questionId: response.alert.questionId, sid: response.alert.sid, text: why))
            return nil
        }
    }

    /// A background push arrived. A `question.updated` one withdraws that question's delivered alert;
    /// returns whether the push was one.
    @discardableResult
    public func backgroundPushReceived(_ payload: Data) -> Bool {
        guard let push = QuestionUpdatedPush(payload: payload) else { return false }
        carryOut(answerer.questionSettled(push.questionId))
        return true
    }

    /// The live connection streamed a question (a `question` event): one no longer pending loses its
    /// delivered alert at once, before (or without) the background push that says the same.
    public func questionStreamed(_ question: Question) {
        guard question.state != .pending else { return }
        carryOut(answerer.questionSettled(question.id))
    }

    func questionPosted(_ id: QuestionID, _ result: Result<ControlPlaneReply, ControlPlaneError>) {
        let outcome: Result<Question, ControlPlaneError>
        switch result {
        case .success(.question(let question)): outcome = .success(question)
        case .success: outcome = .failure(.unreadableAnswer("the answer's reply held no question"))
        case .failure(let error): outcome = .failure(error)
        }
        carryOut(answerer.posted(id, outcome, deviceID: configuration.deviceID, at: clock.now))
    }

    func fireDueAnswerRetries() { carryOut(answerer.retriesDue(at: clock.now)) }

    func carryOut(_ effects: [QuestionAnswerer.Effect]) {
        for effect in effects {
            switch effect {
            case .post(let id, let answer):
                guard let server = configuration.defaultServer else { continue }
                send(.answerQuestion(id, answer: answer, deviceID: configuration.deviceID), to: server)
            case .removeDeliveredAlert(let id):
                alerts.removeDeliveredAlerts(withIdentifiers: [id.rawValue])
            case .notify(let notice):
                alerts.show(notice)
            }
        }
    }
}

/// The tokens the app registers besides the Live Activity ones.
struct DeviceTokens: Hashable, Sendable {
    var alert: PushToken?
    var widget: PushToken?
}
