import FleetCore

/// The decision-log lines of questions (contract 8.2), written through FleetCore's typed constructors.
public enum QuestionLog {
    /// The device id of lines that concern no one device (a question cancelled or expired).
    public static let noDevice = DecisionLogLine.noDevice

    /// `question-answered`, `question-cancelled` or `question-expired`.
    static func resolved(_ question: Question, at now: UnixTime) -> DecisionLogLine {
        .questionResolved(question, at: now)
    }
}

extension QuestionLog {
    /// `alert`: one question push to one device, with the token's first 8 hex characters only.
    static func sent(_ push: QuestionPush, _ result: QuestionPush.Result, at now: UnixTime) -> DecisionLogLine {
        .alert(
            at: now, deviceId: result.target.deviceId, question: push.question, action: push.action.rawValue,
            token: result.target.hex, env: result.target.env,
            answer: LoggedAnswer(status: result.status, reason: result.reason, milliseconds: result.milliseconds))
    }

    /// `token-pruned` for a dead device token (`kind`: `apns` for alerts, `widget` for widget reloads).
    static func pruned(_ result: QuestionPush.Result, kind: String, at now: UnixTime) -> DecisionLogLine {
        .tokenPruned(
            at: now, deviceId: result.target.deviceId, token: result.target.hex, env: result.target.env, kind: kind,
            status: result.status, reason: result.reason)
    }
}
