import APNs
import APNsTesting
import Synchronization
import Testing

/// A sleeper that records each wait and returns at once.
final class RecordingSleeper: Sleeper {
    let waits = Mutex<[Duration]>([])
    func sleep(for duration: Duration) async throws { waits.withLock { $0.append(duration) } }
    var recorded: [Duration] { waits.withLock { $0 } }
}

/// A sender that answers from a script, in order, and records each request; running past the script is a test failure.
final class ScriptedSender: PushSender {
    let script: Mutex<[PushResponse]>
    let count = Mutex(0)
    init(_ responses: [PushResponse]) { script = Mutex(responses) }
    func send(_ request: PushRequest) async -> PushResponse {
        count.withLock { $0 += 1 }
        return script.withLock { script in
            guard !script.isEmpty else {
                Issue.record("unexpected push beyond the script")
                return PushResponse(status: 599)
            }
            return script.removeFirst()
        }
    }
    var sent: Int { count.withLock { $0 } }
}

@Suite struct RetryTests {
    let request = try! PushRequest.widgetReload(token: Fixture.token, environment: .sandbox, bundleID: Fixture.bundle)
    static let unavailable = PushResponse(status: 503, reason: .serviceUnavailable)

    @Test("Back-off doubles from the initial delay up to the cap, and stops after the last attempt")
    func policy() {
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(3))
        #expect(policy.delay(after: Self.unavailable, attempt: 1) == .seconds(1))
        #expect(policy.delay(after: Self.unavailable, attempt: 2) == .seconds(2))
        #expect(policy.delay(after: Self.unavailable, attempt: 3) == .seconds(3))
        #expect(policy.delay(after: Self.unavailable, attempt: 4) == .seconds(3))
        #expect(policy.delay(after: Self.unavailable, attempt: 5) == nil)
        #expect(policy.delay(after: Self.unavailable, attempt: 1, jitter: 1) == .milliseconds(500))
    }

    @Test("Only retry-later answers are retried; accepted, dead tokens, config errors and token-update throttling are not")
    func whatRetries() {
        let policy = RetryPolicy()
        #expect(policy.delay(after: PushResponse(status: 200), attempt: 1) == nil)
        #expect(policy.delay(after: PushResponse(status: 410, reason: .unregistered), attempt: 1) == nil)
        #expect(policy.delay(after: PushResponse(status: 403, reason: .invalidProviderToken), attempt: 1) == nil)
        #expect(policy.delay(after: PushResponse(status: 429, reason: .tooManyProviderTokenUpdates), attempt: 1) == nil)
        #expect(policy.delay(after: PushResponse(status: 429, reason: .tooManyRequests), attempt: 1) != nil)
        #expect(policy.delay(after: .transportFailed(TransportFailure(.goAway, "x")), attempt: 1) != nil)
    }

    @Test("A retrying sender waits per the policy on the injected sleeper and returns the first final answer")
    func retries() async {
        let base = ScriptedSender([Self.unavailable, .transportFailed(TransportFailure(.connectionLost, "x")), PushResponse(status: 200, apnsID: "ok")])
        let sleeper = RecordingSleeper()
        let sender = RetryingPushSender(
            base: base, policy: RetryPolicy(maximumAttempts: 4, initialDelay: .seconds(1)), sleeper: sleeper, jitter: { 0 })
        let response = await sender.send(request)
        #expect(response.outcome == .accepted)
        #expect(response.attempts == 3)
        #expect(sleeper.recorded == [.seconds(1), .seconds(2)])
        #expect(base.sent == 3)
    }

    @Test("A retrying sender gives up after the bounded number of attempts with the last answer")
    func givesUp() async {
        let base = ScriptedSender([Self.unavailable, Self.unavailable])
        let sleeper = RecordingSleeper()
        let sender = RetryingPushSender(base: base, policy: RetryPolicy(maximumAttempts: 2), sleeper: sleeper, jitter: { 0 })
        let response = await sender.send(request)
        #expect(response.outcome == .retryLater)
        #expect(response.attempts == 2)
        #expect(sleeper.recorded == [.milliseconds(500)])
    }
}
