import APNs
import FleetCore

/// One question push to every device with an alert token: the alert that asks it, or the background
/// push that withdraws it.
public struct QuestionPush: Hashable, Sendable {
    public enum Action: String, Hashable, Sendable {
        /// The time-sensitive alert of a new question.
        case ask
        /// The background push after it stopped being pending.
        case withdraw
    }

    /// One device's `apnsToken` (the whole hex: it never leaves the process except to APNs).
    public struct Target: Hashable, Sendable {
        public var deviceId: DeviceID
        public var env: PushEnvironment
        public var hex: String
        /// What the alert shows Apple on this device: the words, the placeholder, or the placeholder and
        /// the words sealed to its key (privacy mode, contract 8.3).
        public var disclosure: AlertDisclosure

        public init(deviceId: DeviceID, env: PushEnvironment, hex: String, disclosure: AlertDisclosure = .clear) {
            self.disclosure = disclosure
            self.deviceId = deviceId
            self.env = env
            self.hex = hex
        }
    }

    /// What one target answered.
    public struct Result: Hashable, Sendable {
        public var target: Target
        /// The HTTP status; 0 when it was never answered (transport failure, or not built).
        public var status: Int
        public var reason: String?
        /// The typed verdict: `tokenDead` prunes the token (410, 400 `BadDeviceToken`; seed 002).
        public var outcome: PushOutcome
        public var milliseconds: Double

        public init(target: Target, status: Int, reason: String?, outcome: PushOutcome, milliseconds: Double) {
            self.target = target
            self.status = status
            self.reason = reason
            self.outcome = outcome
            self.milliseconds = milliseconds
        }
    }

    public var action: Action
    public var question: Question
    /// The alert's title: the session's title when the question was asked.
    public var title: String
    public var targets: [Target]

    public init(action: Action, question: Question, title: String, targets: [Target]) {
        self.action = action
        self.question = question
        self.title = title
        self.targets = targets
    }
}

/// Sends the pushes to a device's own tokens: question alerts and withdrawals to `apnsToken`, widget
/// reloads to `widgetPushToken`. Rules: one result per target, in target order; never throws.
public protocol QuestionNotifier: Sendable {
    func deliver(_ push: QuestionPush) async -> [QuestionPush.Result]
    /// A WidgetKit reload (`{"aps":{"content-changed":true}}`) to each target's widget push token.
    func reloadWidgets(_ targets: [QuestionPush.Target]) async -> [QuestionPush.Result]
}

/// Question pushes through any `PushSender` (HTTP/2 to APNs in production, the stand-in in tests).
public struct APNsQuestionNotifier: QuestionNotifier {
    let sender: any PushSender
    let bundleID: BundleID

    public init(sender: any PushSender, bundleID: BundleID) {
        self.sender = sender
        self.bundleID = bundleID
    }

    public func deliver(_ push: QuestionPush) async -> [QuestionPush.Result] {
        await sendAll(push.targets) { target, bundleID in
            let token = try DeviceToken(hex: target.hex)
            switch push.action {
            case .ask:
                return try .questionAlert(
                    push.question, title: push.title, disclosure: target.disclosure, token: token,
                    environment: target.env, bundleID: bundleID)
            case .withdraw:
                return try .questionWithdrawal(push.question, token: token, environment: target.env, bundleID: bundleID)
            }
        }
    }

    public func reloadWidgets(_ targets: [QuestionPush.Target]) async -> [QuestionPush.Result] {
        await sendAll(targets) { target, bundleID in
            try .widgetReload(token: try DeviceToken(hex: target.hex), environment: target.env, bundleID: bundleID)
        }
    }

    /// Sends one request per target, all in flight at once; results in target order.
    private func sendAll(
        _ targets: [QuestionPush.Target],
        _ build: @escaping @Sendable (QuestionPush.Target, BundleID) throws -> PushRequest
    ) async -> [QuestionPush.Result] {
        let sender = sender
        let bundleID = bundleID
        return await withTaskGroup(of: (Int, QuestionPush.Result).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask { (index, await Self.send(to: target, sender: sender) { try build(target, bundleID) }) }
            }
            var results = [QuestionPush.Result?](repeating: nil, count: targets.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    static func send(
        to target: QuestionPush.Target, sender: any PushSender, _ build: () throws -> PushRequest
    ) async -> QuestionPush.Result {
        let request: PushRequest
        do {
            request = try build()
        } catch {
            return QuestionPush.Result(
                target: target, status: 0, reason: "not sent: \(error)", outcome: .configurationError, milliseconds: 0)
        }
        let response = await sender.send(request)
        return QuestionPush.Result(
            target: target, status: response.status, reason: response.reason?.rawValue ?? response.failure?.description,
            outcome: response.outcome, milliseconds: response.latencyMilliseconds)
    }
}
