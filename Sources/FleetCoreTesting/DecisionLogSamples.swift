import FleetCore

/// One line of every decision-log event, written through its typed constructor, for tests that check
/// readers against the schema (a new event must add its sample here: the switch is exhaustive).
public enum DecisionLogSamples {
    public static let deviceId: DeviceID = "phone"
    /// A whole token (longer than the log may show).
    public static let wholeToken = "0123456789abcdef0123456789abcdef"
    public static let wholeChannel = "dHJ1ZS1jaGFubmVsLWlkLWJhc2U2NA=="

    public static var all: [DecisionLogLine] { DecisionEvent.allCases.enumerated().map { line($1, at: 1_000 + Double($0)) } }

    public static func question(_ state: Question.State, by answeredBy: String? = nil) -> Question {
        Question(
            id: "q1", sid: "s1", kind: .confirm, text: "Run tests?", options: ["Allow", "Deny"], state: state,
            answer: answeredBy == nil ? nil : "Allow", answeredBy: answeredBy, createdAt: 0, expiresAt: nil)
    }

    public static func line(_ event: DecisionEvent, at ts: UnixTime) -> DecisionLogLine {
        let answer = LoggedAnswer(status: 410, reason: "Unregistered", apnsId: "5B2E0A4C", milliseconds: 41.5)
        let content = ContentState(
            working: 1, needsInput: 1,
            rows: [Row(sid: "s1", title: "a", state: .needsInput, since: 0), Row(sid: "s2", title: "b", state: .working, since: 0)])
        switch event {
        case .decide:
            return .decide(
                at: ts, deviceId: deviceId, action: .update, tokens: 2, content: content, priority: 5,
                channel: wholeChannel, purpose: "renewal")
        case .send:
            return .send(at: ts, deviceId: deviceId, action: .update, token: wholeToken, env: .sandbox, answer: answer)
        case .noTokens: return .noTokens(at: ts, deviceId: deviceId, action: .start)
        case .noneAccepted: return .shortfall(at: ts, deviceId: deviceId, action: .update, accepted: 0, attempted: 2)
        case .partial: return .shortfall(at: ts, deviceId: deviceId, action: .end, accepted: 1, attempted: 2)
        case .clientEnded: return .clientEnded(at: ts, deviceId: deviceId, veto: ["s2", "s1"], hadCard: true)
        case .adopted: return .adopted(at: ts, deviceId: deviceId, token: wholeToken, env: .production)
        case .startVetoed: return .startVetoed(at: ts, deviceId: deviceId, veto: ["s1"], active: 1)
        case .tokenPruned:
            return .tokenPruned(
                at: ts, deviceId: deviceId, token: wholeToken, env: .sandbox, kind: "update", status: 410,
                reason: "Unregistered")
        case .startHeld: return .startHeld(at: ts, deviceId: deviceId, graceSeconds: 3, active: 2)
        case .channelCreated:
            return .channelCreated(at: ts, deviceId: deviceId, channel: wholeChannel, env: .sandbox, milliseconds: 30)
        case .channelDeleted:
            return .channelDeleted(
                at: ts, deviceId: deviceId, channel: wholeChannel, env: .sandbox, status: 204, milliseconds: 30)
        case .channelFailed:
            return .channelFailed(
                at: ts, deviceId: deviceId, operation: "create", env: .production,
                answer: LoggedAnswer(status: 400, reason: "CannotCreateChannelConfig", milliseconds: 12),
                extra: [.fallback: .string("token"), .failures: .integer(1)])
        case .broadcast:
            return .broadcast(
                at: ts, deviceId: deviceId, action: .update, channel: wholeChannel, env: .sandbox, answer: answer)
        case .renewed:
            return .renewed(
                at: ts, deviceId: deviceId, oldStartedAt: ts - 27_000, oldEnded: true, mode: "channel",
                channel: wholeChannel)
        case .cardExpired: return .cardExpired(at: ts, deviceId: deviceId, startedAt: ts - 28_800)
        case .alert:
            return .alert(
                at: ts, deviceId: deviceId, question: question(.pending), action: "ask", token: wholeToken,
                env: .sandbox, answer: answer)
        case .questionAnswered: return .questionResolved(question(.answered, by: "phone"), at: ts)
        case .questionCancelled: return .questionResolved(question(.cancelled, by: "terminal"), at: ts)
        case .questionExpired: return .questionResolved(question(.expired), at: ts)
        }
    }
}
