import APNs
import FleetCore

/// Broadcast channels (guard `broadcast-channels`, contract 8.1): one channel per device and env, made
/// when the device asks for channel cards, deleted when nothing needs it any more, and given up for token
/// mode at the channel limit or after repeated failures.
extension Watcher {
    /// Whether new cards of this device should listen on a channel.
    func wantsChannel(_ record: DeviceRecord) -> Bool {
        guards.isOn(.broadcastChannels) && record.profile.liveActivityChannels && record.profile.env != nil
            && record.channel.fallbackReason == nil
    }

    /// The device's mode: channel when it wants one and has one in its env.
    public func mode(of record: DeviceRecord) -> CardMode {
        guard wantsChannel(record), let current = record.channel.current, current.env == record.profile.env else {
            return .token
        }
        return .channel
    }

    /// The channel a new card of this device starts on, or nil for a token card.
    func startChannel(_ record: DeviceRecord) -> DeviceChannel? {
        mode(of: record) == .channel ? record.channel.current : nil
    }

    /// Per tick: make the channel a device needs, retire the ones no card uses and nobody wants.
    mutating func upkeepChannels(_ box: inout FleetBox, deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        let record = box.record
        let wanted = wantsChannel(record)
        // Most devices have no channel and want none: nothing to do, and nothing allocated per tick.
        guard wanted || record.channel.current != nil || record.channel.successor != nil else { return [] }
        var effects: [WatcherEffect] = []
        let inUse = Set([record.card?.channel, record.retiringCard?.channel?.id].compactMap { $0 })
        for channel in record.channel.channels where !inUse.contains(channel.id) {
            // A renewal's unused successor goes; with rotation it is the spare the next card starts on.
            let isSpareSuccessor = channel == record.channel.successor && record.card == nil
                && !guards.isOn(.channelRotation)
            if !wanted || channel.env != record.profile.env || isSpareSuccessor {
                effects += retireChannel(channel, from: &box, now: now)
            }
        }
        if box.record.channel.current == nil, let successor = box.record.channel.successor {
            box.record.channel.current = successor
            box.record.channel.successor = nil
            effects.append(.saveDevice(deviceId, box.record))
        }
        if wanted, box.record.channel.current == nil || needsSpareChannel(box.record) {
            effects += requestChannel(&box, deviceId: deviceId, now: now)
        }
        return effects
    }

    /// Asks for a new channel for the device, unless one is already asked or a retry is not yet due.
    mutating func requestChannel(_ box: inout FleetBox, deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        guard !box.isChannelRequested, let env = box.record.profile.env else { return [] }
        if let retryAt = box.record.channel.retryAt, now < retryAt { return [] }
        box.isChannelRequested = true
        return [.requestChannel(.create(deviceId, env, cardChannelStoragePolicy))]
    }

    /// Takes `channel` off the device and queues its deletion.
    mutating func retireChannel(_ channel: DeviceChannel, from box: inout FleetBox, now: UnixTime) -> [WatcherEffect] {
        box.record.channel.remove(channel)
        return retire(channel)
    }

    /// Queues `channel`'s deletion (persisted, so a restart still deletes it); a held channel (see
    /// ``DeviceChannel/holdUntil``) is asked for by ``retryChannelDeletions(now:)`` once its hold is over.
    mutating func retire(_ channel: DeviceChannel) -> [WatcherEffect] {
        guard !retiredChannels.contains(where: { $0.id == channel.id }) else { return [] }
        retiredChannels.append(channel)
        guard channel.holdUntil == nil else { return [.saveRetiredChannels(retiredChannels)] }
        channelDeletions[channel.id] = .inFlight
        return [.saveRetiredChannels(retiredChannels), .requestChannel(.delete(channel))]
    }

    /// Per tick: asks again for the deletion of retired channels whose last attempt failed.
    mutating func retryChannelDeletions(now: UnixTime) -> [WatcherEffect] {
        var effects: [WatcherEffect] = []
        for channel in retiredChannels {
            if let holdUntil = channel.holdUntil, now < holdUntil { continue }
            switch channelDeletions[channel.id] {
            case .inFlight: continue
            case .retry(let retryAt) where now < retryAt: continue
            case .retry, nil:
                channelDeletions[channel.id] = .inFlight
                effects.append(.requestChannel(.delete(channel)))
            }
        }
        return effects
    }

    mutating func answerChannelCreation(
        _ deviceId: DeviceID, _ env: PushEnvironment, _ answer: ChannelAnswer, now: UnixTime
    ) -> [WatcherEffect] {
        guard var box = boxes[deviceId] else {
            // The device was deleted meanwhile: the new channel is nobody's.
            guard answer.isCreated, let id = answer.channelId else { return [] }
            return retire(DeviceChannel(id: id, env: env, deviceId: deviceId, createdAt: now))
        }
        defer { boxes[deviceId] = box }
        box.isChannelRequested = false
        var effects: [WatcherEffect] = []
        if answer.isCreated, let id = answer.channelId {
            let channel = DeviceChannel(id: id, env: env, deviceId: deviceId, createdAt: now)
            box.record.channel.failures = 0
            box.record.channel.retryAt = nil
            effects.append(.log(.channelCreated(
                at: now, deviceId: deviceId, channel: channel.shortId, env: env, milliseconds: answer.milliseconds)))
            if !wantsChannel(box.record) || env != box.record.profile.env {
                effects += retire(channel)
            } else if box.record.channel.current == nil {
                box.record.channel.current = channel
            } else if box.record.channel.successor == nil {
                box.record.channel.successor = channel
            } else {
                effects += retire(channel)
            }
        } else {
            box.record.channel.failures += 1
            var extra: [LogField: LogValue] = [:]
            if answer.isCreationHopeless || box.record.channel.failures >= policy.channelAttempts {
                // At the limit (or broadcast off, or APNs failing again and again) the device runs in token
                // mode: it still gets a card, updated through its update token, as on iOS 17.
                let reason = answer.reasonText ?? "status \(answer.status)"
                box.record.channel.fallbackReason = reason
                box.record.channel.retryAt = nil
                extra[.fallback] = .string(CardMode.token.rawValue)
                extra[.failures] = .integer(box.record.channel.failures)
            } else {
                let backoff = policy.channelRetryDelay * Double(1 << min(box.record.channel.failures - 1, 10))
                box.record.channel.retryAt = now + backoff
                extra[.retryAt] = .number(now + backoff)
            }
            effects.append(.log(.channelFailed(
                at: now, deviceId: deviceId, operation: "create", env: env, answer: answer.logged, extra: extra)))
        }
        effects.append(.saveDevice(deviceId, box.record))
        return effects
    }

    mutating func answerChannelDeletion(_ channel: DeviceChannel, _ answer: ChannelAnswer, now: UnixTime) -> [WatcherEffect] {
        guard retiredChannels.contains(where: { $0.id == channel.id }) else { return [] }
        guard answer.isDeletedOrGone else {
            channelDeletions[channel.id] = .retry(at: now + Self.channelDeletionRetry)
            return [.log(.channelFailed(
                at: now, deviceId: channel.deviceId, channel: channel.shortId, operation: "delete", env: channel.env,
                answer: answer.logged))]
        }
        retiredChannels.removeAll { $0.id == channel.id }
        channelDeletions[channel.id] = nil
        return [
            .log(.channelDeleted(
                at: now, deviceId: channel.deviceId, channel: channel.shortId, env: channel.env, status: answer.status,
                milliseconds: answer.milliseconds)),
            .saveRetiredChannels(retiredChannels),
        ]
    }

    /// How long a failed channel deletion waits before it is asked again.
    static let channelDeletionRetry: Double = 60


    /// The app made its own card on one of the device's channels: adopt it, as an update-token
    /// registration adopts a token card (guard `adopt-on-register`), so no second card is push-started.
    mutating func reportChannelCard(_ deviceId: DeviceID, _ channelId: BroadcastChannelID, now: UnixTime) -> [WatcherEffect] {
        var box = box(deviceId)
        defer { boxes[deviceId] = box }
        guard box.record.channel.channels.contains(where: { $0.id == channelId }) else { return [] }
        let effects = adopt(
            &box, deviceId: deviceId, channel: channelId, now: now,
            line: .adopted(at: now, deviceId: deviceId, channel: channelId.first8))
        return effects + [.saveDevice(deviceId, box.record)]
    }

    /// The device is gone: delete its channels and forget its record.
    mutating func deleteDevice(_ deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        guard let box = boxes.removeValue(forKey: deviceId) else { return [] }
        sortedDevices.removeAll { $0 == deviceId }
        indexAppTokens(deviceId, nil)
        var effects: [WatcherEffect] = []
        let channels = box.record.channel.channels + [box.record.retiringCard?.channel].compactMap { $0 }
        for channel in channels { effects += retire(channel) }
        effects.append(.forgetDevice(deviceId))
        return effects
    }
}
