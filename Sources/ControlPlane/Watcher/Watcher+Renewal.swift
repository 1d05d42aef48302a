import APNs
import FleetCore

/// The 8-hour limit (guard `renewal`): iOS ends a card 8 hours after it started. While sessions stay
/// active the watcher replaces it first, at ``CardPolicy/renewAfter``: it push-starts the new card, and
/// the moment that start is delivered it ends the old card, so the Lock Screen is never without a card
/// and shows two only for the round trip of one push.
///
/// The old card must end without the new one ending too:
/// - A token card is ended through its own update token. That token is taken out of the device's tokens
///   when the new card starts (seed 003: a card's token dies with it), so nothing meant for the new card
///   goes to the old one, and the `end` goes to the old one only. If the phone never handed the old
///   card's token over, nothing can address it; iOS ends it at 8 hours.
/// - A channel card cannot be ended by a broadcast on its channel, because the new card would listen
///   there too and end with it. So the new card starts on a fresh channel (made first, one request), the
///   old card is ended by publishing `end` on the old channel, and the old channel is then deleted.
///   Relying on the app's dedupe instead would leave two cards on an idle phone, whose app never runs.
extension Watcher {
    /// Starts the card that replaces `card`; in channel mode on a channel `card` does not listen on.
    mutating func renew(
        _ box: inout FleetBox, card: FleetCard, content: ContentState, deviceId: DeviceID, now: UnixTime,
        routineWaiting: inout Bool
    ) -> [WatcherEffect] {
        var channel: DeviceChannel?
        if wantsChannel(box.record) {
            let free = box.record.channel.channels.filter { $0.id != card.channel && $0.env == box.record.profile.env }
            guard let fresh = free.first else { return requestChannel(&box, deviceId: deviceId, now: now) }
            channel = fresh
        }
        return send(
            .start, content: content, box: &box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting,
            purpose: .renewal, startChannel: channel)
    }

    /// The renewal's start was delivered: the new card takes over and the old one starts retiring.
    mutating func applyRenewal(_ batch: PushBatch, to box: inout FleetBox, now: UnixTime) -> [WatcherEffect] {
        let deviceId = batch.deviceId
        var effects: [WatcherEffect] = []
        if let old = box.record.card {
            let oldChannel = old.channel.flatMap { id in box.record.channel.channels.first { $0.id == id } }
            var oldTargets: [PushTarget] = []
            if oldChannel == nil {
                oldTargets = box.record.tokens.of(.update).map(\.target)
                if guards.isOn(.tokenForgetting) { effects += forgetUpdateTokens(&box, deviceId: deviceId, reason: "card-renewed", now: now) }
            }
            if let oldChannel { box.record.channel.remove(oldChannel) }
            box.record.retiringCard = RetiringCard(startedAt: old.startedAt, channel: oldChannel, updateTargets: oldTargets)
            effects.append(.recordHistory(.ended(deviceId, at: now, reason: .renewed)))
        }
        if let started = batch.inputPushChannel, box.record.channel.successor?.id == started {
            box.record.channel.current = box.record.channel.successor
            box.record.channel.successor = nil
        }
        box.record.card = FleetCard(
            contentState: batch.contentState, startedAt: now, origin: .pushToStart, channel: batch.inputPushChannel,
            staleAt: batch.staleDate)
        effects.append(.recordHistory(.started(deviceId, at: now, origin: .pushToStart)))
        // A routine wait of the old card's end needs no wake-up: the answer left the box changed, so the device
        // is decided at the next tick, which sends the end or waits again.
        var routineWaiting = false
        return effects + endRetiringCard(&box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting)
    }

    /// Sends the retiring card its `end`, or lets it go when nothing can reach it any more.
    mutating func endRetiringCard(
        _ box: inout FleetBox, deviceId: DeviceID, now: UnixTime, routineWaiting: inout Bool
    ) -> [WatcherEffect] {
        guard let retiring = box.record.retiringCard else { return [] }
        let isUnreachable = retiring.channel == nil && retiring.updateTargets.isEmpty
        guard isUnreachable || now - retiring.startedAt >= CardPolicy.cardLifetimeSeconds else {
            return send(
                .end, content: .zeroed(at: now), box: &box, deviceId: deviceId, now: now,
                routineWaiting: &routineWaiting, purpose: .retiringEnd)
        }
        return finishRenewal(&box, deviceId: deviceId, isOldCardEnded: false, now: now)
    }

    /// The old card is ended (or out of reach): forget it, delete its channel, log `renewed`.
    mutating func finishRenewal(
        _ box: inout FleetBox, deviceId: DeviceID, isOldCardEnded: Bool, now: UnixTime
    ) -> [WatcherEffect] {
        guard let retiring = box.record.retiringCard else { return [] }
        box.record.retiringCard = nil
        var effects: [WatcherEffect] = [
            .log(.renewed(
                at: now, deviceId: deviceId, oldStartedAt: retiring.startedAt, oldEnded: isOldCardEnded,
                mode: (retiring.channel == nil ? CardMode.token : .channel).rawValue,
                channel: box.record.card?.channel?.first8))
        ]
        if let channel = retiring.channel {
            let held = isOldCardEnded ? heldAfterEnd(channel, now: now) : channel
            // As for any ended card (guard `channel-rotation`): the `end` is published once more on the held
            // channel. A broadcast has no per-phone answer, and one lost after APNs' 200 leaves the old card
            // beside the new one until iOS ends it at 8 h (and 4 h more on the Lock Screen).
            if isOldCardEnded, guards.isOn(.channelRotation) { box.endsToRepeat.append(held) }
            effects += retire(held)
        }
        return effects
    }

    /// iOS has ended a card at its 8-hour limit (no renewal replaced it in time): forget it and its token,
    /// so the next tick starts a new one instead of updating a card that is gone.
    mutating func expireCard(_ box: inout FleetBox, deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        guard let card = box.record.card else { return [] }
        box.record.card = nil
        box.endGate = EndGateState()
        box.generation &+= 1
        var effects: [WatcherEffect] = [
            .log(.cardExpired(at: now, deviceId: deviceId, startedAt: card.startedAt)),
            .recordHistory(.ended(deviceId, at: now, reason: .expired)),
        ]
        if guards.isOn(.tokenForgetting) { effects += forgetUpdateTokens(&box, deviceId: deviceId, reason: "card-expired", now: now) }
        return effects
    }
}
