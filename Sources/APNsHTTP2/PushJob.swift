import APNs

/// One push travelling through the transport: the request, who waits for it, and its history.
///
/// `@unchecked Sendable`: a caller creates it and hands it over through the inbox lock; from then on
/// only the loop thread reads or changes it.
final class PushJob: @unchecked Sendable {
    let request: PushRequest
    let continuation: CheckedContinuation<PushResponse, Never>
    let enqueuedAt: ContinuousClock.Instant
    /// Times put on the wire so far.
    var attempts = 0
    /// Whether a fresh provider token was already tried after `ExpiredProviderToken`.
    var hasRefreshedToken = false

    init(request: PushRequest, continuation: CheckedContinuation<PushResponse, Never>, enqueuedAt: ContinuousClock.Instant) {
        self.request = request
        self.continuation = continuation
        self.enqueuedAt = enqueuedAt
    }

    /// Answers the caller; called exactly once per job.
    func finish(_ response: PushResponse) {
        var response = response
        response.attempts = max(attempts, 1)
        response.latencyMilliseconds = Self.milliseconds(since: enqueuedAt)
        continuation.resume(returning: response)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
