import APNs
import FleetCore
import Foundation

/// Where the driver sends the watcher's batches: APNs in production, or a
/// disabled one. The scripted one for tests and benchmarks lives in `ControlPlaneTesting`.
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
        ChannelAnswer(status: 0, failure: "this push gateway cannot publish to broadcast channels")
    }

    public func perform(_ request: ChannelRequest) async -> ChannelAnswer {
        ChannelAnswer(status: 0, failure: "this push gateway cannot manage broadcast channels")
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
