import Foundation
import HTTPTypes

/// Operations endpoints: `GET /readyz` (no auth, like `/healthz`) and `GET /metrics` (bearer or session:
/// the counts say how busy the server is and which APNs reasons it sees, nothing for strangers).
extension APIRouter {
    /// 200 `{"ready": true}` when the store answers; 503 with the reason when it does not.
    func readiness() async -> HTTPResponse {
        struct Body: Encodable {
            var ready: Bool
            var reason: String?
        }
        if let problem = await accounts.owner.service.storeProblem() {
            return .json(Body(ready: false, reason: problem), status: 503)
        }
        return .json(Body(ready: true))
    }

    /// The Prometheus text exposition of ``ControlPlaneService/metricsText()``.
    func metrics() async -> HTTPResponse {
        var otherAccountsDriven = 0
        for tenant in accounts.allTenants where tenant.account != .owner {
            otherAccountsDriven += await tenant.service.devicesDriven
        }
        let text = await accounts.owner.service.metricsText(otherAccountsDriven: otherAccountsDriven)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")], body: .bytes(Data(text.utf8)))
    }
}

extension ControlPlaneService {
    /// Why the store cannot be used right now (a cheap read failed), or nil when it answers.
    public func storeProblem() async -> String? {
        do {
            _ = try await dependencies.store.history(deviceId: nil, limit: 1)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// How many devices this account's card watcher drives here.
    public var devicesDriven: Int { watcher.deviceIds.count }

    /// Every metric as Prometheus text (format 0.0.4).
    /// - Parameter otherAccountsDriven: the devices the other accounts' services drive on this instance
    ///   (`lfg_devices_driven` counts the instance's, every account's).
    public func metricsText(otherAccountsDriven: Int = 0) -> String {
        // Leases are the instance's, over every account; alone, it holds every device and none moves.
        let leases = dependencies.coordinator?.leases.counts ?? InstanceLeases.Counts(held: heldDevices.count)
        return metrics.prometheusText(
            gauges: ServiceMetrics.Gauges(
                devicesDriven: watcher.deviceIds.count + otherAccountsDriven, leases: leases,
                eventStreams: events.subscriberCount, longPolls: questionWaiters.count,
                isPushing: pushGateReason == nil && holdsFreshLeases),
            storeCommitSeconds: commitTimes.current, databaseRoundTrips: dependencies.databaseRoundTrips?())
    }
}
