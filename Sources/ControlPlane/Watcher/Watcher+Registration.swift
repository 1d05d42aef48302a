import APNs
import FleetCore

extension Watcher {
    /// A token registration: supersede / cap, and for an update token, adoption.
    mutating func registerToken(_ deviceId: DeviceID, _ token: LiveActivityToken) -> [WatcherEffect] {
        var box = box(deviceId)
        defer { boxes[deviceId] = box }
        var effects: [WatcherEffect] = []
        box.record.tokens.register(token, guards: guards)
        box.noTokensLogged = nil
        if token.kind == .update {
            effects += adopt(
                &box, deviceId: deviceId, channel: nil, now: token.registeredAt,
                line: .adopted(at: token.registeredAt, deviceId: deviceId, token: token.hex, env: token.env))
        }
        effects.append(.saveDevice(deviceId, box.record))
        return effects
    }

    /// Proof a card is on screen (an update token, or the app's report of a channel card): take it over
    /// instead of push-starting a second one beside it (guard `adopt-on-register`). No content state, so
    /// the next tick pushes current content. Clears the start veto either way.
    mutating func adopt(
        _ box: inout FleetBox, deviceId: DeviceID, channel: BroadcastChannelID?, now: UnixTime, line: DecisionLogLine
    ) -> [WatcherEffect] {
        var effects: [WatcherEffect] = []
        if guards.isOn(.adoptOnRegister) {
            box.generation &+= 1
            if box.record.card == nil {
                box.record.card = FleetCard(contentState: nil, startedAt: now, origin: .adopted, channel: channel)
                effects.append(.recordHistory(.started(deviceId, at: now, origin: .adopted)))
            } else {
                box.record.card?.contentState = nil
                if let channel { box.record.card?.channel = channel }
                effects.append(.recordHistory(.adopted(deviceId, at: now)))
            }
            effects.append(.log(line))
        }
        box.record.veto = nil
        box.record.isVetoLogged = false
        return effects
    }

    /// The phone ended its card: forget it and record the population it ended against (the veto).
    mutating func reportEnded(_ deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        let population = activeSids(of: deviceId)
        var box = box(deviceId)
        defer { boxes[deviceId] = box }
        let hadCard = box.record.card != nil
        box.record.card = nil
        box.record.veto = population
        box.record.isVetoLogged = false
        box.generation &+= 1
        box.endGate = EndGateState()
        if !isLoaded { box.isEndedReportedBeforeLoad = true }
        // The ended card's update token is a corpse now (guard `token-forgetting`).
        var effects = guards.isOn(.tokenForgetting)
            ? forgetUpdateTokens(&box, deviceId: deviceId, reason: "client-ended", now: now) : []
        effects.append(.log(.clientEnded(at: now, deviceId: deviceId, veto: Array(population), hadCard: hadCard)))
        if hadCard { effects.append(.recordHistory(.ended(deviceId, at: now, reason: .clientEnded))) }
        effects.append(.saveDevice(deviceId, box.record))
        return effects
    }

    /// A device's profile (hidden folders, env, platform).
    mutating func reportDevice(_ deviceId: DeviceID, _ profile: DeviceProfile) -> [WatcherEffect] {
        var box = box(deviceId)
        box.record.profile = profile
        indexAppTokens(deviceId, profile)
        if profile.liveActivityChannels {
            // A fallback to token mode lasts until the app next says it wants channels (each launch), so
            // a device that hit the channel limit tries again once there may be room.
            box.record.channel.fallbackReason = nil
            box.record.channel.failures = 0
            box.record.channel.retryAt = nil
        }
        boxes[deviceId] = box
        return [.saveDevice(deviceId, box.record)]
    }

    /// The stored state arrived. Anything reported while it loaded is newer and is kept.
    mutating func load(
        _ devices: [DeviceID: DeviceRecord], since stored: SinceMap, retiredChannels retired: [DeviceChannel], now: UnixTime
    ) -> [WatcherEffect] {
        var effects: [WatcherEffect] = []
        // Deletions asked for before the restart are asked again at the first tick.
        for channel in retired where !retiredChannels.contains(channel) { retiredChannels.append(channel) }
        for deviceId in devices.keys.sorted() {
            let storedRecord = devices[deviceId]!
            guard let current = boxes[deviceId] else {
                var box = box(deviceId)
                box.record = storedRecord
                boxes[deviceId] = box
                indexAppTokens(deviceId, storedRecord.profile)
                continue
            }
            var merged = storedRecord
            // Registrations during the load are newer than the stored ones: apply them on top, oldest first.
            for token in current.record.tokens.reversed() { merged.tokens.register(token, guards: guards) }
            if current.record.profile != DeviceProfile() {
                merged.profile = current.record.profile
                if current.record.profile.liveActivityChannels { merged.channel.fallbackReason = nil }
            }
            // An /ended that landed mid-load must win over the snapshot, or the dead card is resurrected
            // (guard `ended-report-wins`). A card adopted mid-load is newer too.
            if guards.isOn(.endedReportWins), current.isEndedReportedBeforeLoad || current.record.card != nil {
                merged.card = current.record.card
                merged.veto = current.record.veto
                merged.isVetoLogged = current.record.isVetoLogged
            }
            boxes[deviceId]?.record = merged
            indexAppTokens(deviceId, merged.profile)
            effects.append(.saveDevice(deviceId, merged))
        }
        for deviceId in sortedDevices { boxes[deviceId]?.isEndedReportedBeforeLoad = false }
        // A stored baseline of a session nothing reduced yet is looked at again at the next tick.
        views.revisit.formUnion(stored.keys.filter { since[$0] == nil })
        since = stored.merging(since) { _, current in current }
        isLoaded = true
        return effects
    }

    /// Keeps ``devicesWithAppTokens`` in step with `deviceId`'s profile (nil: the device is gone).
    mutating func indexAppTokens(_ deviceId: DeviceID, _ profile: DeviceProfile?) {
        if profile.map({ $0.apnsToken != nil || $0.widgetPushToken != nil }) ?? false {
            devicesWithAppTokens.insert(deviceId)
        } else {
            devicesWithAppTokens.remove(deviceId)
        }
    }
}
