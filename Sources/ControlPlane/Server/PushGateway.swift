import APNs
import FleetCore
import Foundation
import Synchronization

/// Where the driver sends the watcher's batches: APNs in production, a script in tests and benchmarks.
///
/// Rules: return exactly one ``TokenResult`` per target, in target order; never throw (a transport
/// failure is a result with status 0 and the error text as reason); measure each send's milliseconds.
public protocol PushGateway: Sendable {
    func deliver(_ batch: PushBatch) async -> [TokenResult]
    /// Publishes a broadcast batch (``PushBatch/channel`` set) and returns APNs' one answer.
    func publish(_ batch: PushBatch) async -> ChannelAnswer
    /// Carries out one channel-management request (create or delete) and returns APNs' answer.
    func perform(_ request: ChannelRequest) async -> ChannelAnswer
}

extension PushGateway {
    /// A gateway without channel support answers every publish with a failure (status 0) that names it,
    /// so a channel device logs `channel-failed` and falls back to token mode instead of going silent.
    public func publish(_ batch: PushBatch) async -> ChannelAnswer {
        ChannelAnswer(status: 0, reason: "this push gateway cannot publish to broadcast channels")
    }

    public func perform(_ request: ChannelRequest) async -> ChannelAnswer {
        ChannelAnswer(status: 0, reason: "this push gateway cannot manage broadcast channels")
    }
}

/// A push gateway that answers from a script and records every batch: for tests, benchmarks and demos.
///
/// Every token answers 200 unless ``answer(_:status:reason:)`` set something else for it.
public final class ScriptedPushGateway: PushGateway {
    private struct State {
        var answers: [String: (Int, String?)] = [:]
        var delivered: [PushBatch] = []
        var channels = ScriptedChannels()
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let onDeliver: (@Sendable (PushBatch) -> Void)?

    /// - Parameter onDeliver: called as each batch leaves (benchmarks time it).
    public init(onDeliver: (@Sendable (PushBatch) -> Void)? = nil) { self.onDeliver = onDeliver }

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
    public func failChannelRequests(_ count: Int, status: Int, reason: String?) {
        state.withLock { $0.channels.failures += Array(repeating: (status, reason), count: count) }
    }

    /// From now on, every publish answers `status` (and `reason`).
    public func answerPublishes(status: Int, reason: String? = nil) {
        state.withLock { $0.channels.publishAnswer = (status, reason) }
    }

    /// Every batch delivered so far (token sends and broadcasts), in order.
    public var delivered: [PushBatch] { state.withLock { $0.delivered } }

    /// Returns once at least `count` batches were delivered.
    public func waitForDeliveries(_ count: Int) async {
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
        record(batch) { state in
            batch.targets.map { target in
                let (status, reason) = state.answers[target.hex] ?? (200, nil)
                return TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: 0)
            }
        }
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

/// The gateway of a server that may not push: every token answers "not sent" (status 0).
public struct DisabledPushGateway: PushGateway {
    let reason: String
    public init(reason: String) { self.reason = reason }
    public func deliver(_ batch: PushBatch) async -> [TokenResult] {
        batch.targets.map { TokenResult(target: $0, status: 0, reason: reason) }
    }
}
