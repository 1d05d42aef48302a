import AsyncTesting
import ControlPlane
import Synchronization
import Testing

/// A push gateway that answers from a script and records every batch: for tests and benchmarks, never the server.
///
/// A token nobody scripted with ``answer(_:status:reason:)`` is a test failure (an issue is recorded and it
/// answers status 0, "not sent"), unless the gateway was made with ``answeringEverything(status:onDeliver:)``.
public final class ScriptedPushGateway: PushGateway {
    /// What a token nobody scripted answers.
    public enum Unscripted: Sendable {
        /// Record a test failure naming the token.
        case fail
        /// Answer this status, on purpose (benchmarks, tests about something other than APNs answers).
        case answer(status: Int)
    }

    private struct State {
        var answers: [String: (Int, String?)] = [:]
        var delivered: [PushBatch] = []
        var unexpected: [PushTarget] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let unscripted: Unscripted
    private let onDeliver: (@Sendable (PushBatch) -> Void)?

    /// - Parameters:
    ///   - unscripted: what a token nobody scripted answers; by default it fails the test.
    ///   - onDeliver: called as each batch leaves (benchmarks time it).
    public init(unscripted: Unscripted = .fail, onDeliver: (@Sendable (PushBatch) -> Void)? = nil) {
        self.unscripted = unscripted
        self.onDeliver = onDeliver
    }

    /// A gateway where every token nobody scripted answers `status`, said explicitly.
    public static func answeringEverything(status: Int = 200, onDeliver: (@Sendable (PushBatch) -> Void)? = nil)
        -> ScriptedPushGateway
    {
        ScriptedPushGateway(unscripted: .answer(status: status), onDeliver: onDeliver)
    }

    /// From now on, `hex` answers `status` (and `reason`).
    public func answer(_ hex: String, status: Int, reason: String? = nil) {
        state.withLock { $0.answers[hex] = (status, reason) }
    }

    /// Every batch delivered so far, in order.
    public var delivered: [PushBatch] { state.withLock { $0.delivered } }

    /// Every target asked about that nobody scripted (only with ``Unscripted/fail``).
    public var unexpected: [PushTarget] { state.withLock { $0.unexpected } }

    /// Returns once at least `count` batches were delivered; throws ``TimeLimitExceeded`` after `limit`.
    public func waitForDeliveries(_ count: Int, within limit: Duration = defaultTimeLimit) async throws {
        try await bounded("\(count) push batch(es) to be delivered", within: limit) {
            await self.deliveries(count)
        }
    }

    private func deliveries(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isDone = state.withLock { state in
                if state.delivered.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if isDone { continuation.resume() }
        }
    }

    public func deliver(_ batch: PushBatch) async -> [TokenResult] {
        onDeliver?(batch)
        let (results, ready, surprises) = state.withLock { state in
            state.delivered.append(batch)
            var surprises: [PushTarget] = []
            let results = batch.targets.map { target in
                if let (status, reason) = state.answers[target.hex] {
                    return TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: 0)
                }
                switch unscripted {
                case .answer(let status):
                    return TokenResult(target: target, status: status, reason: nil, apnsId: nil, milliseconds: 0)
                case .fail:
                    surprises.append(target)
                    return TokenResult(target: target, status: 0, reason: "unscripted token", apnsId: nil, milliseconds: 0)
                }
            }
            state.unexpected += surprises
            let count = state.delivered.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (results, ready, surprises)
        }
        for target in surprises {
            let message = "ScriptedPushGateway: a \(batch.action.rawValue) push to token \(target.shortHex) nobody scripted; "
                + "call answer(_:status:) for it, or make the gateway with .answeringEverything(status:)"
            Issue.record(Comment(rawValue: message))
        }
        for continuation in ready { continuation.resume() }
        return results
    }
}
