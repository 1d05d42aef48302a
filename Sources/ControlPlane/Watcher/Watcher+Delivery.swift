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
        let before = box.record
        var effects: [WatcherEffect] = []
        let isDelivered: Bool
        if let channel = batch.channel {
            let answer = receipt.broadcast ?? ChannelAnswer(status: 0, failure: "no answer to the broadcast")
            effects.append(.log(Self.broadcastLine(answer, action: batch.action, channel: channel, deviceId: deviceId, now: now)))
            isDelivered = answer.isPublished
            if answer.isChannelUnknown {
                effects += loseChannel(channel, answer: answer, purpose: pending.purpose, box: &box, now: now)
            } else if !isDelivered {
                effects.append(Self.shortfallLine(batch.action, accepted: 0, attempted: 1, deviceId: deviceId, now: now))
            }
        } else {
            effects += logAndPrune(receipt, batch: batch, box: &box, now: now)
            let accepted = receipt.results.filter(\.isAccepted).count
            let attempted = receipt.results.count
            isDelivered = self.isDelivered(batch.action, accepted: accepted, attempted: attempted)
            // Short of the threshold the card is left as it was, so the next tick re-sends.
            if !isDelivered {
                effects.append(Self.shortfallLine(batch.action, accepted: accepted, attempted: attempted, deviceId: deviceId, now: now))
            }
        }
        if pending.purpose == .repeatedEnd {
            // One more try only: the card it ends is already forgotten, whatever the answer.
            if !box.endsToRepeat.isEmpty { box.endsToRepeat.removeFirst() }
        } else if isDelivered, pending.purpose == .retiringEnd {
            effects += finishRenewal(&box, deviceId: deviceId, isOldCardEnded: true, now: now)
        } else if isDelivered, pending.generation == box.generation {
            effects += applyDelivered(batch, purpose: pending.purpose, to: &box, now: now)
        }
        boxes[deviceId] = box
        if box.record != before { effects.append(.saveDevice(deviceId, box.record)) }
        return effects
    }

    /// Logs one `send` per token, and prunes the dead ones (from the renewed card's targets too).
    private func logAndPrune(_ receipt: PushReceipt, batch: PushBatch, box: inout FleetBox, now: UnixTime) -> [WatcherEffect] {
        var effects: [WatcherEffect] = []
        for result in receipt.results {
            effects.append(.log(Self.sendLine(result, action: batch.action, deviceId: receipt.deviceId, now: now)))
            noteAnswer(result, in: &box, now: now)
            guard result.isTokenDead else { continue }
            box.record.retiringCard?.updateTargets.removeAll { $0 == result.target }
            if box.record.tokens.prune(result.target) {
                effects.append(.log(.tokenPruned(
                    at: now, deviceId: receipt.deviceId, token: result.target.hex, env: result.target.env,
                    kind: result.target.kind.rawValue, status: result.status, reason: result.reason)))
            }
        }
        return effects
    }

    static func shortfallLine(_ action: PushAction, accepted: Int, attempted: Int, deviceId: DeviceID, now: UnixTime)
        -> WatcherEffect
    {
        .log(.shortfall(at: now, deviceId: deviceId, action: action, accepted: accepted, attempted: attempted))
    }

    /// APNs no longer knows the channel a card listens on: nothing can reach that card any more. Forget the
    /// channel and the card (it reads stale on the phone at its stale date), so the next tick starts a
    /// card that can be reached, on a new channel.
    private mutating func loseChannel(
        _ channel: DeviceChannel, answer: ChannelAnswer, purpose: PushPurpose, box: inout FleetBox, now: UnixTime
    ) -> [WatcherEffect] {
        box.record.channel.remove(channel)
        var effects: [WatcherEffect] = [
            .log(.channelFailed(
                at: now, deviceId: channel.deviceId, channel: channel.shortId, operation: "publish", env: channel.env,
                answer: answer.logged))
        ]
        if purpose == .retiringEnd {
            box.record.retiringCard?.channel = nil
            return effects + finishRenewal(&box, deviceId: channel.deviceId, isOldCardEnded: false, now: now)
        }
        if box.record.card?.channel == channel.id {
            box.record.card = nil
            box.generation &+= 1
            box.endGate = EndGateState()
            effects.append(.recordHistory(.ended(channel.deviceId, at: now, reason: .unreachable)))
        }
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

    private mutating func applyDelivered(
        _ batch: PushBatch, purpose: PushPurpose, to box: inout FleetBox, now: UnixTime
    ) -> [WatcherEffect] {
        switch batch.action {
        case .start:
            box.record.veto = nil
            box.record.isVetoLogged = false
            if purpose == .renewal { return applyRenewal(batch, to: &box, now: now) }
            box.record.card = FleetCard(
                contentState: batch.contentState, startedAt: now, origin: .pushToStart, channel: batch.inputPushChannel,
                staleAt: batch.staleDate)
            return [.recordHistory(.started(batch.deviceId, at: now, origin: .pushToStart))]
        case .update:
            box.record.card?.contentState = batch.contentState
            box.record.card?.staleAt = batch.staleDate
            return []
        case .end:
            box.record.card = nil
            box.endGate = EndGateState()
            var effects: [WatcherEffect] = [.recordHistory(.ended(batch.deviceId, at: now, reason: .serverEnded))]
            if let channel = batch.channel { effects += rotateChannel(afterEndOn: channel.id, box: &box, now: now) }
            if guards.isOn(.tokenForgetting) {
                effects += forgetUpdateTokens(&box, deviceId: batch.deviceId, reason: "card-ended", now: now)
            }
            return effects
        }
    }

    /// One publish to a channel, as logged (`broadcast`).
    static func broadcastLine(
        _ answer: ChannelAnswer, action: PushAction, channel: DeviceChannel, deviceId: DeviceID, now: UnixTime
    ) -> DecisionLogLine {
        .broadcast(
            at: now, deviceId: deviceId, action: action, channel: channel.shortId, env: channel.env, answer: answer.logged)
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
