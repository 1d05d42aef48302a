import FleetCore

/// Where the driver sends the watcher's batches: APNs in production, or a
/// disabled one. The scripted one for tests and benchmarks lives in `ControlPlaneTesting`.
///
/// Rules: return exactly one ``TokenResult`` per target, in target order; never throw (a transport
/// failure is a result with status 0 and the error text as reason); measure each send's milliseconds.
public protocol PushGateway: Sendable {
    func deliver(_ batch: PushBatch) async -> [TokenResult]
}

/// The gateway of a server that may not push: every token answers "not sent" (status 0).
public struct DisabledPushGateway: PushGateway {
    let reason: String
    public init(reason: String) { self.reason = reason }
    public func deliver(_ batch: PushBatch) async -> [TokenResult] {
        batch.targets.map { TokenResult(target: $0, status: 0, reason: reason) }
    }
}
