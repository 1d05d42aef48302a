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
        HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: .bytes(Data(await accounts.owner.service.metricsText().utf8)))
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

    /// Every metric as Prometheus text (format 0.0.4).
    public func metricsText() -> String {
        metrics.prometheusText(
            gauges: ServiceMetrics.Gauges(
                devicesDriven: heldDevices.count, eventStreams: events.subscriberCount, longPolls: questionWaiters.count,
                isPushing: pushGateReason == nil && holdsFreshLeases),
            storeCommitSeconds: commitTimes.current)
    }
}
