import APNs
import FleetCore

/// Channel rotation (guard `channel-rotation`): a channel a card was ended on never carries a later card.
///
/// The server's channels keep the latest message for an offline phone (policy 1, ``cardChannelStoragePolicy``).
/// If the next card started on the channel the last one was ended on, the new card's first update would
/// replace the stored `end`, and a phone that was offline meanwhile would never get it: the old card would
/// live on beside the new one (the simulator's `day` scenario: minutes of two cards per run). So:
/// - the `end` is the channel's last message: the channel leaves the device and is retired with a hold
///   of APNs' storage limit (8 hours), after which its `end` can no longer be delivered and deleting it
///   changes nothing; the retired-channel list persists it and its deletion;
/// - the next card starts on a spare channel made while the last card lived (so a start never waits for
///   a create call, and the device never reads as token mode in between).
extension Watcher {
    /// `end` was delivered on `channelId`: take the channel off the device, hold it, and let the spare
    /// (if there is one) carry the next card.
    mutating func rotateChannel(
        afterEndOn channelId: BroadcastChannelID, box: inout FleetBox, now: UnixTime
    ) -> [WatcherEffect] {
        guard guards.isOn(.channelRotation),
            let channel = box.record.channel.channels.first(where: { $0.id == channelId })
        else { return [] }
        box.record.channel.remove(channel)
        if box.record.channel.current == nil, let spare = box.record.channel.successor {
            box.record.channel.current = spare
            box.record.channel.successor = nil
        }
        let held = heldAfterEnd(channel, now: now)
        box.endsToRepeat.append(held)
        return retire(held)
    }

    /// Publishes an ended card's `end` once more on its held channel, once the next card has started.
    mutating func repeatEnd(
        _ box: inout FleetBox, deviceId: DeviceID, now: UnixTime, routineWaiting: inout Bool
    ) -> [WatcherEffect] {
        guard box.record.card != nil, !box.endsToRepeat.isEmpty else { return [] }
        return send(
            .end, content: .zeroed(at: now), box: &box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting,
            purpose: .repeatedEnd)
    }

    /// `channel` as retired after an `end` was published on it at `now` (without the guard: deleted at once).
    func heldAfterEnd(_ channel: DeviceChannel, now: UnixTime) -> DeviceChannel {
        guard guards.isOn(.channelRotation) else { return channel }
        var held = channel
        held.holdUntil = now + Double(ChannelStoragePolicy.storageLimitSeconds)
        return held
    }

    /// Whether the device should have a spare channel made now: its card listens on its current channel
    /// and nothing is there to start the next card on.
    func needsSpareChannel(_ record: DeviceRecord) -> Bool {
        guard guards.isOn(.channelRotation), let current = record.channel.current else { return false }
        return record.channel.successor == nil && record.card?.channel == current.id
    }
}
