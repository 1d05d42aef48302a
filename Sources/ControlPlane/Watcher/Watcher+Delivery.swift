import FleetCore

extension Watcher {
    /// APNs answered a batch: log every send, prune dead tokens, and apply the delivery threshold.
    mutating func answer(_ receipt: PushReceipt, now: UnixTime) -> [WatcherEffect] {
        guard var box = boxes[receipt.deviceId], let pending = box.pending, pending.batch.id == receipt.batchId else {
            return []
        }
        let deviceId = receipt.deviceId
        let batch = pending.batch
        box.pending = nil
        var effects: [WatcherEffect] = []
        var isRecordChanged = false

        for result in receipt.results {
            effects.append(.log(Self.sendLine(result, action: batch.action, deviceId: deviceId, now: now)))
            if result.isTokenDead, box.record.tokens.prune(result.target) {
                isRecordChanged = true
                effects.append(.log(.tokenPruned(
                    at: now, deviceId: deviceId, token: result.target.hex, env: result.target.env,
                    kind: result.target.kind.rawValue, status: result.status, reason: result.reason)))
            }
        }

        let accepted = receipt.results.filter(\.isAccepted).count
        let attempted = receipt.results.count
        if !isDelivered(batch.action, accepted: accepted, attempted: attempted) {
            // Short of the threshold the card is left as it was, so the next tick re-sends.
            effects.append(.log(.shortfall(
                at: now, deviceId: deviceId, action: batch.action, accepted: accepted, attempted: attempted)))
        } else if pending.generation == box.generation {
            isRecordChanged = true
            effects += applyDelivered(batch, to: &box, now: now)
        }
        boxes[deviceId] = box
        if isRecordChanged { effects.append(.saveDevice(deviceId, box.record)) }
        return effects
    }

    /// Start needs one accepting token: re-blasting stale push-to-start tokens could stack duplicates,
    /// and an under-delivered start heals through registration. Update and end need every addressed
    /// token: "any accepted" was routinely "only the corpse accepted" (guard `all-accept`).
    func isDelivered(_ action: PushAction, accepted: Int, attempted: Int) -> Bool {
        switch action {
        case .start: return accepted >= 1
        case .update, .end: return guards.isOn(.allAccept) ? attempted > 0 && accepted == attempted : accepted >= 1
        }
    }

    private func applyDelivered(_ batch: PushBatch, to box: inout FleetBox, now: UnixTime) -> [WatcherEffect] {
        switch batch.action {
        case .start:
            box.record.card = FleetCard(contentState: batch.contentState, startedAt: now, origin: .pushToStart)
            box.record.veto = nil
            box.record.isVetoLogged = false
            return [.recordHistory(.started(batch.deviceId, at: now, origin: .pushToStart))]
        case .update:
            box.record.card?.contentState = batch.contentState
            return []
        case .end:
            box.record.card = nil
            box.endGate = EndGateState()
            return [.recordHistory(.ended(batch.deviceId, at: now, reason: .serverEnded))]
        }
    }

    static func sendLine(_ result: TokenResult, action: PushAction, deviceId: DeviceID, now: UnixTime)
        -> DecisionLogLine
    {
        .send(
            at: now, deviceId: deviceId, action: action, token: result.target.hex, env: result.target.env,
            answer: LoggedAnswer(
                status: result.status, reason: result.reason, apnsId: result.apnsId, milliseconds: result.milliseconds))
    }
}
