import ControlPlane
import FleetApp
import FleetCore

/// APNs as the seed met it: latency, rare 5xx, a dead Live Activity token that answers 200 and drops the
/// payload, a rotted push-to-start token that does the same, 410 only for a deleted app, and 400
/// `BadDeviceToken` for a token no install ever had.
struct SimulatedAPNs {
    /// Which phone minted each token the servers were ever handed (tokens are opaque to APNs' callers).
    private var owners: [String: Int] = [:]

    mutating func noteOwner(_ hex: String, phone index: Int) { owners[hex] = index }

    func owner(of hex: String) -> Int? { owners[hex] }
}

extension Simulation {
    /// Sends one token's push of `batch` through the simulated APNs; `answered` gets the result later.
    ///
    /// The phone sees the push (if it goes anywhere) at the instant the server gets its answer.
    func sendThroughAPNs(_ target: PushTarget, of batch: PushBatch, answered: @escaping (TokenResult, Simulation) -> Void) {
        let phone = phones.firstIndex { $0.device == batch.deviceId }
        metrics.pushSent(phone: phone, content: batch.contentState, priority: priority(of: batch), self)
        note("apns: \(batch.action.rawValue) -> \(target.shortHex) (\(target.env.rawValue))")
        var chance = draw(.apns, target.hex)
        let latency = chance.uniform(environment.apnsLatency)
        let isTransientFailure = chance.chance(environment.apnsTransientFailure[target.env] ?? 0)
        after(latency) { simulation in
            let (status, reason) = simulation.deliver(target, of: batch, transientFailure: isTransientFailure)
            simulation.note("apns: \(batch.action.rawValue) \(target.shortHex) answered \(status)")
            answered(
                TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: latency * 1000),
                simulation)
        }
    }

    /// The batch's `apns-priority`. Every push is priority 10 until the watcher decides priorities.
    func priority(of batch: PushBatch) -> Int { 10 }

    private func deliver(_ target: PushTarget, of batch: PushBatch, transientFailure: Bool) -> (Int, String?) {
        if transientFailure { return (503, "ServiceUnavailable") }
        guard let index = apns.owner(of: target.hex), let token = PushToken(hex: target.hex) else {
            return (400, "BadDeviceToken")
        }
        let phone = phones[index]
        guard phone.isInstalled else { return (410, "Unregistered") }
        switch (target.kind, batch.action) {
        case (.pushToStart, .start):
            phone.pushStarted(token, content: batch.contentState, in: self)
        case (.update, .update):
            phone.deliver(.update(batch.contentState, timestamp: batch.decidedAt), to: token, in: self)
        case (.update, .end):
            let dismissal: DismissalPolicy =
                (batch.dismissalDate ?? batch.decidedAt) <= batch.decidedAt ? .immediate : .after(batch.dismissalDate!)
            phone.deliver(.end(batch.contentState, dismissal: dismissal, timestamp: batch.decidedAt), to: token, in: self)
        default:
            break
        }
        // 200 in every case: a dead card's token, a rotted push-to-start token, a live card alike.
        return (200, nil)
    }
}
