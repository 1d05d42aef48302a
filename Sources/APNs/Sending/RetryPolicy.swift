/// How often and how soon a push is resent after a retry-later answer: exponential back-off with
/// a cap and a bounded number of attempts. A pure value; the sender does the waiting.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in all, the first included (1 = never retry).
    public var maximumAttempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// The factor each further wait grows by.
    public var multiplier: Double
    /// The longest wait.
    public var maximumDelay: Duration

    public init(maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(500), multiplier: Double = 2,
                maximumDelay: Duration = .seconds(8)) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
    }

    /// Never retry.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The wait before attempt `attempt + 1` after `response` came back from attempt `attempt`
    /// (1-based), or nil when the push must not be resent: it was answered for good, or the
    /// attempts are used up.
    ///
    /// `jitter` in 0 ... 1 scales the wait down by up to half, so many senders do not retry in step.
    public func delay(after response: PushResponse, attempt: Int, jitter: Double = 0) -> Duration? {
        guard response.outcome == .retryLater, attempt < maximumAttempts else { return nil }
        // A token that changed too often must not be replaced sooner; waiting does not help within one run.
        if response.remedy == .reuseProviderToken { return nil }
        var delay = initialDelay
        for _ in 1..<attempt { delay = min(delay * multiplier, maximumDelay) }
        let scaled = delay * (1 - min(max(jitter, 0), 1) / 2)
        return min(scaled, maximumDelay)
    }
}
