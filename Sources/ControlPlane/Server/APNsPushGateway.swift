import APNs
import FleetCore

/// The watcher's batches as APNs Live Activity pushes, through any `PushSender` (libcurl in production,
/// the in-process stand-in in demos and tests).
///
/// Each target gets its own push, all in flight at once; the answer of each becomes a ``TokenResult``.
public struct APNsPushGateway: PushGateway {
    let sender: any PushSender
    let bundleID: BundleID

    public init(sender: any PushSender, bundleID: BundleID) {
        self.sender = sender
        self.bundleID = bundleID
    }

    public func deliver(_ batch: PushBatch) async -> [TokenResult] {
        let payload = Self.payload(for: batch)
        let priority = batch.priority
        let sender = sender
        let bundleID = bundleID
        return await withTaskGroup(of: (Int, TokenResult).self) { group in
            for (index, target) in batch.targets.enumerated() {
                group.addTask {
                    (index, await Self.send(payload, to: target, priority: priority, sender: sender, bundleID: bundleID))
                }
            }
            var results = [TokenResult?](repeating: nil, count: batch.targets.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    /// The `aps` body for the batch's action (contract section 6).
    static func payload(for batch: PushBatch) -> LiveActivityPayload {
        switch batch.action {
        case .start: .start(state: batch.contentState, timestamp: batch.decidedAt, staleDate: batch.staleDate)
        case .update: .update(state: batch.contentState, timestamp: batch.decidedAt, staleDate: batch.staleDate)
        case .end:
            .end(state: batch.contentState, timestamp: batch.decidedAt, dismissalDate: batch.dismissalDate ?? batch.decidedAt)
        }
    }

    static func send(
        _ payload: LiveActivityPayload, to target: PushTarget, priority: PushPriority, sender: any PushSender,
        bundleID: BundleID
    ) async -> TokenResult {
        let request: PushRequest
        do {
            request = try PushRequest.liveActivity(
                payload, token: try DeviceToken(hex: target.hex), environment: target.env, bundleID: bundleID,
                priority: priority)
        } catch {
            // Refused before it left: no retry can succeed until the request changes.
            return TokenResult(target: target, status: 0, reason: "not sent: \(error)", remedy: .fixRequest)
        }
        let response = await sender.send(request)
        return TokenResult(
            target: target, status: response.status,
            reason: response.reason?.rawValue ?? response.failure?.description, apnsId: response.apnsID,
            milliseconds: response.latencyMilliseconds, remedy: .some(response.remedy))
    }
}
