import APNs
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
        var channels = ScriptedChannels()
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

    /// Every channel request carried out so far, in order.
    public var channelRequests: [ChannelRequest] { state.withLock { $0.channels.requests } }

    /// The channels that exist now (made and not deleted).
    public var liveChannels: [BroadcastChannelID] { state.withLock { $0.channels.live } }

    /// From now on, channel creation answers 400 `CannotCreateChannelConfig` once `limit` channels exist.
    public func limitChannels(to limit: Int) { state.withLock { $0.channels.limit = limit } }

    /// The next `count` channel requests answer `status` and `reason` (then the script resumes).
    public func failChannelRequests(_ count: Int, status: Int, reason: APNsReason?) {
        state.withLock { $0.channels.failures += Array(repeating: (status, reason), count: count) }
    }

    /// From now on, every publish answers `status` (and `reason`).
    public func answerPublishes(status: Int, reason: APNsReason? = nil) {
        state.withLock { $0.channels.publishAnswer = (status, reason) }
    }

    /// Every batch delivered so far (token sends and broadcasts), in order.
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
        var surprises: [PushTarget] = []
        let results = record(batch) { state in
            batch.targets.map { target in
                if let (status, reason) = state.answers[target.hex] {
                    return TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: 0)
                }
                switch unscripted {
                case .answer(let status):
                    return TokenResult(target: target, status: status, reason: nil, apnsId: nil, milliseconds: 0)
                case .fail:
                    state.unexpected.append(target)
                    surprises.append(target)
                    return TokenResult(target: target, status: 0, reason: "unscripted token", apnsId: nil, milliseconds: 0)
                }
            }
        }
        for target in surprises {
            let message = "ScriptedPushGateway: a \(batch.action.rawValue) push to token \(target.shortHex) nobody scripted; "
                + "call answer(_:status:) for it, or make the gateway with .answeringEverything(status:)"
            Issue.record(Comment(rawValue: message))
        }
        return results
    }

    public func publish(_ batch: PushBatch) async -> ChannelAnswer {
        record(batch) { state in state.channels.publish(batch) }
    }

    public func perform(_ request: ChannelRequest) async -> ChannelAnswer {
        state.withLock { $0.channels.perform(request) }
    }

    /// Records `batch`, answers it with `answer`, and wakes whoever waits for this many deliveries.
    private func record<Answer>(_ batch: PushBatch, _ answer: (inout State) -> Answer) -> Answer {
        onDeliver?(batch)
        let (result, ready) = state.withLock { state in
            state.delivered.append(batch)
            let result = answer(&state)
            let count = state.delivered.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (result, ready)
        }
        for continuation in ready { continuation.resume() }
        return result
    }
}
