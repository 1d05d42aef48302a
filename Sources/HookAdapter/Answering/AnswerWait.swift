import FleetCore

/// What one long poll of the control plane found (`GET /api/questions/{id}/wait?timeout=S`).
public enum PollResult: Hashable, Sendable {
    /// The question as it stands (settled, or still pending after the timeout).
    case question(Question)
    /// 404: the server does not know it (yet: the report that asks it may still be on its way).
    case unknown
    /// The server could not be asked (down, refused, an unreadable answer).
    case unreachable
}

/// One long poll of the control plane.
public protocol QuestionPoller: Sendable {
    func wait(for id: QuestionID, seconds: Double) async -> PollResult
}

/// The hook's wait for the phone: long polls in slices until the question is settled, the wait limit
/// passes, or the person comes back to the keyboard (the policy is asked again before every slice, so
/// the hook never holds a person who sits at the terminal).
public struct AnswerWait: Sendable {
    /// The longest slice while the policy depends on idle time: how soon a returning person is noticed.
    public static let idleRecheckSeconds = 10.0
    /// The longest slice the server takes (contract 8.2).
    public static let maximumSliceSeconds = 300.0
    /// How long a question the server does not know yet is looked for: another hook process may hold
    /// the session's delivery turn and send the report that asks it a moment later.
    public static let unknownGraceSeconds = 3.0
    /// The pause between two looks for a question the server does not know yet.
    public static let unknownRetrySeconds = 0.05

    public var settings: AnswerSettings
    public var idleClock: any HostIdleClock
    public var poller: any QuestionPoller
    /// Unix seconds now.
    public var now: @Sendable () -> UnixTime
    /// Waits this many seconds (between looks for a question the server does not know yet).
    public var pause: @Sendable (Double) async -> Void

    public init(
        settings: AnswerSettings, idleClock: any HostIdleClock, poller: any QuestionPoller,
        now: @escaping @Sendable () -> UnixTime, pause: @escaping @Sendable (Double) async -> Void
    ) {
        self.settings = settings
        self.idleClock = idleClock
        self.poller = poller
        self.now = now
        self.pause = pause
    }

    /// Whether the hook may start waiting now.
    public func mayWait() -> Bool {
        settings.waitSeconds > 0 && settings.policy.allowsWaiting(idleSeconds: idleClock.idleSeconds())
    }

    /// Waits for `id` until `deadline` (Unix seconds); returns the question once it is no longer
    /// pending, or nil (given up: time is up, the person is active, or the server cannot be asked).
    public func settled(_ id: QuestionID, until deadline: UnixTime) async -> Question? {
        let slice = settings.policy == .always ? Self.maximumSliceSeconds : Self.idleRecheckSeconds
        let unknownUntil = now() + Self.unknownGraceSeconds
        while true {
            let remaining = deadline - now()
            guard remaining > 0, settings.policy.allowsWaiting(idleSeconds: idleClock.idleSeconds()) else { return nil }
            switch await poller.wait(for: id, seconds: min(remaining, slice)) {
            case .question(let question):
                if question.state != .pending { return question }
            case .unknown:
                guard now() < unknownUntil else { return nil }
                await pause(Self.unknownRetrySeconds)
            case .unreachable:
                return nil
            }
        }
    }
}
