import FleetCore

/// One long poll of the control plane (`GET /api/questions/{id}/wait?timeout=S`).
public protocol QuestionPoller: Sendable {
    /// The question as it stands once it stops being pending or `seconds` pass; nil when the server
    /// could not be asked (down, refused, unreadable answer).
    func wait(for id: QuestionID, seconds: Double) async -> Question?
}

/// The hook's wait for the phone: long polls in slices until the question is settled, the wait limit
/// passes, or the person comes back to the keyboard (the policy is asked again before every slice, so
/// the hook never holds a person who sits at the terminal).
public struct AnswerWait: Sendable {
    /// The longest slice while the policy depends on idle time: how soon a returning person is noticed.
    public static let idleRecheckSeconds = 10.0
    /// The longest slice the server takes (contract 8.2).
    public static let maximumSliceSeconds = 300.0

    public var settings: AnswerSettings
    public var idleClock: any HostIdleClock
    public var poller: any QuestionPoller
    /// Unix seconds now.
    public var now: @Sendable () -> UnixTime

    public init(
        settings: AnswerSettings, idleClock: any HostIdleClock, poller: any QuestionPoller,
        now: @escaping @Sendable () -> UnixTime
    ) {
        self.settings = settings
        self.idleClock = idleClock
        self.poller = poller
        self.now = now
    }

    /// Whether the hook may start waiting now.
    public func mayWait() -> Bool {
        settings.waitSeconds > 0 && settings.policy.allowsWaiting(idleSeconds: idleClock.idleSeconds())
    }

    /// Waits for `id` until `deadline` (Unix seconds); returns the question once it is no longer
    /// pending, or nil (given up: time is up, the person is active, or the server cannot be asked).
    public func settled(_ id: QuestionID, until deadline: UnixTime) async -> Question? {
        let slice = settings.policy == .always ? Self.maximumSliceSeconds : Self.idleRecheckSeconds
        while true {
            let remaining = deadline - now()
            guard remaining > 0, settings.policy.allowsWaiting(idleSeconds: idleClock.idleSeconds()) else { return nil }
            guard let question = await poller.wait(for: id, seconds: min(remaining, slice)) else { return nil }
            if question.state != .pending { return question }
        }
    }
}
