import FleetCore
import Synchronization

/// Where the driver sends the watcher's batches: APNs in production, a script in tests and benchmarks.
///
/// Rules: return exactly one ``TokenResult`` per target, in target order; never throw (a transport
/// failure is a result with status 0 and the error text as reason); measure each send's milliseconds.
public protocol PushGateway: Sendable {
    func deliver(_ batch: PushBatch) async -> [TokenResult]
}

/// A push gateway that answers from a script and records every batch: for tests, benchmarks and demos.
///
/// Every token answers 200 unless ``answer(_:status:reason:)`` set something else for it.
public final class ScriptedPushGateway: PushGateway {
    private struct State {
        var answers: [String: (Int, String?)] = [:]
        var delivered: [PushBatch] = []
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

    /// Every batch delivered so far, in order.
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
        onDeliver?(batch)
        let (results, ready) = state.withLock { state in
            state.delivered.append(batch)
            let results = batch.targets.map { target in
                let (status, reason) = state.answers[target.hex] ?? (200, nil)
                return TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: 0)
            }
            let count = state.delivered.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (results, ready)
        }
        for continuation in ready { continuation.resume() }
        return results
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
