import APNs

/// Waits for a duration; the live one sleeps on a clock, a test one records and returns at once.
public protocol Sleeper: Sendable {
    func sleep(for duration: Duration) async throws
}

/// Sleeps on `ContinuousClock`.
public struct ClockSleeper: Sleeper {
    public init() {}
    public func sleep(for duration: Duration) async throws { try await ContinuousClock().sleep(for: duration) }
}

/// A sender that resends retry-later answers per a ``RetryPolicy``, waiting on an injected ``Sleeper``.
///
/// Test-only: the server's watcher decides re-sends itself, so nothing shipped retries behind its back.
///
/// The returned response is the last one, with ``PushResponse/attempts`` summed over all tries.
/// Cancellation stops the waiting and returns the last answer.
public struct RetryingPushSender: PushSender {
    public let base: any PushSender
    public let policy: RetryPolicy
    public let sleeper: any Sleeper
    /// Jitter source in 0 ... 1 (inject a constant in tests).
    public let jitter: @Sendable () -> Double

    public init(base: any PushSender, policy: RetryPolicy = RetryPolicy(), sleeper: any Sleeper = ClockSleeper(),
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.base = base
        self.policy = policy
        self.sleeper = sleeper
        self.jitter = jitter
    }

    public func send(_ request: PushRequest) async -> PushResponse {
        var attempt = 1
        var attempts = 0
        while true {
            var response = await base.send(request)
            attempts += response.attempts
            response.attempts = attempts
            guard let delay = policy.delay(after: response, attempt: attempt, jitter: jitter()) else { return response }
            do { try await sleeper.sleep(for: delay) } catch { return response }
            attempt += 1
        }
    }
}
