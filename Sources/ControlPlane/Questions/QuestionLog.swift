import FleetCore

/// The decision-log lines of questions (contract 8.2): one definition, used by the book and the driver.
public enum QuestionLog {
    /// The device id of lines that concern no one device (a question cancelled or expired).
    public static let noDevice = DeviceID("")

    /// `question-answered`, `question-cancelled` or `question-expired`.
    static func resolved(_ question: Question, at now: UnixTime) -> DecisionLogLine {
        let event: DecisionEvent = switch question.state {
        case .answered: .questionAnswered
        case .expired: .questionExpired
        case .cancelled, .pending: .questionCancelled
        }
        var fields: [String: LogValue] = [
            "questionId": .string(question.id.rawValue), "sid": .string(question.sid.rawValue),
            "kind": .string(question.kind.rawValue),
        ]
        if let by = question.answeredBy { fields["answeredBy"] = .string(by) }
        let deviceId = question.state == .answered ? question.answeredBy.map { DeviceID($0) } : nil
        return DecisionLogLine(ts: now, event: event, deviceId: deviceId ?? noDevice, fields: fields)
    }
}

extension QuestionLog {
    /// `alert`: one question push to one device, with the token's first 8 hex characters only.
    static func sent(_ push: QuestionPush, _ result: QuestionPush.Result, at now: UnixTime) -> DecisionLogLine {
        var fields: [String: LogValue] = [
            "action": .string(push.action.rawValue), "questionId": .string(push.question.id.rawValue),
            "sid": .string(push.question.sid.rawValue), "kind": .string(push.question.kind.rawValue),
            "token": .string(TokenHex.short(result.target.hex)), "env": .string(result.target.env.rawValue),
            "status": .integer(result.status), "ms": .number(result.milliseconds),
        ]
        if let reason = result.reason { fields["reason"] = .string(reason) }
        return DecisionLogLine(ts: now, event: .alert, deviceId: result.target.deviceId, fields: fields)
    }

    /// `token-pruned` for a dead device token (`kind`: `apns` for alerts, `widget` for widget reloads).
    static func pruned(_ result: QuestionPush.Result, kind: String, at now: UnixTime) -> DecisionLogLine {
        var fields: [String: LogValue] = [
            "kind": .string(kind), "token": .string(TokenHex.short(result.target.hex)),
            "env": .string(result.target.env.rawValue), "status": .integer(result.status),
        ]
        if let reason = result.reason { fields["reason"] = .string(reason) }
        return DecisionLogLine(ts: now, event: .tokenPruned, deviceId: result.target.deviceId, fields: fields)
    }
}
