import APNs
import ControlPlane
import FleetCore

/// APNs' broadcast side (reference section 5): channel management with latency, 5xx and the channel limit,
/// and publishing with one answer for the whole channel (never a per-device result), `TooManyRequests`
/// when one channel is published to too fast, and drops after a 200.
extension Simulation {
    /// `POST /1/apps/<bundle>/channels`: a new channel, or 400 `CannotCreateChannelConfig` at the limit.
    func createChannel(
        for device: DeviceID, _ env: PushEnvironment, policy: ChannelStoragePolicy,
        answered: @escaping (ChannelAnswer, Simulation) -> Void
    ) {
        var chance = draw(.channelManagement, "\(device)/\(env.rawValue)")
        let latency = chance.uniform(environment.apnsLatency)
        let failsTransiently = chance.chance(environment.apnsTransientFailure[env] ?? 0)
        let idBytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: chance.next()) }
        after(latency) { simulation in
            let answer: ChannelAnswer
            if failsTransiently {
                answer = ChannelAnswer(status: 503, reason: .serviceUnavailable, milliseconds: latency * 1000)
            } else if simulation.apns.channels.count >= simulation.environment.channelLimit {
                answer = ChannelAnswer(status: 400, reason: .cannotCreateChannelConfig, milliseconds: latency * 1000)
            } else {
                let id = Base64.encode(idBytes)
                simulation.apns.channelCreated(id, policy: policy.rawValue)
                answer = ChannelAnswer(
                    status: 201, channelId: try? BroadcastChannelID(id), milliseconds: latency * 1000)
            }
            simulation.note("apns: create channel for \(device) answered \(answer.status)")
            answered(answer, simulation)
        }
    }

    /// `DELETE /1/apps/<bundle>/channels`: 204, or 400 `ChannelNotRegistered` for one already gone.
    func deleteChannel(_ channel: DeviceChannel, answered: @escaping (ChannelAnswer, Simulation) -> Void) {
        var chance = draw(.channelManagement, "delete/\(channel.id.rawValue)")
        let latency = chance.uniform(environment.apnsLatency)
        let failsTransiently = chance.chance(environment.apnsTransientFailure[channel.env] ?? 0)
        after(latency) { simulation in
            let answer: ChannelAnswer
            if failsTransiently {
                answer = ChannelAnswer(status: 503, reason: .serviceUnavailable, milliseconds: latency * 1000)
            } else if simulation.apns.channelDeleted(channel.id.rawValue) {
                answer = ChannelAnswer(status: 204, milliseconds: latency * 1000)
            } else {
                answer = ChannelAnswer(status: 400, reason: .channelNotRegistered, milliseconds: latency * 1000)
            }
            simulation.note("apns: delete channel \(channel.shortId) answered \(answer.status)")
            answered(answer, simulation)
        }
    }

    /// `POST /4/broadcasts/apps/<bundle>`: one answer; every online phone with a card on the channel gets
    /// the push (each may lose it after the 200); offline phones get the stored message on reconnect
    /// (policy 1) or nothing (policy 0).
    func publishThroughAPNs(_ batch: PushBatch, answered: @escaping (ChannelAnswer, Simulation) -> Void) {
        guard let channel = batch.channel else { return }
        let id = channel.id.rawValue
        let phone = phones.firstIndex { $0.device == batch.deviceId }
        notePushSent(batch, phone: phone)
        note("apns: broadcast \(batch.action.rawValue) on \(channel.shortId)")
        var chance = draw(.apns, "channel/" + id)
        let latency = chance.uniform(environment.apnsLatency)
        let failsTransiently = chance.chance(environment.apnsTransientFailure[channel.env] ?? 0)
        after(latency) { simulation in
            let answer = simulation.broadcast(batch, on: id, failsTransiently: failsTransiently, latency: latency)
            simulation.note("apns: broadcast on \(channel.shortId) answered \(answer.status)")
            answered(answer, simulation)
        }
    }

    private func broadcast(_ batch: PushBatch, on id: String, failsTransiently: Bool, latency: Double) -> ChannelAnswer {
        let milliseconds = latency * 1000
        if failsTransiently { return ChannelAnswer(status: 503, reason: .serviceUnavailable, milliseconds: milliseconds) }
        guard apns.channelExists(id) else {
            return ChannelAnswer(status: 400, reason: .channelNotRegistered, milliseconds: milliseconds)
        }
        guard apns.notePublish(on: id, at: now, limitPerMinute: environment.broadcastsPerChannelPerMinute) else {
            return ChannelAnswer(status: 429, reason: .tooManyRequests, milliseconds: milliseconds)
        }
        let push = IncomingPush.broadcast(channel: id, Self.livePush(batch))
        let priority = priority(of: batch)
        apns.storeLatest(push, priority: priority, on: id, until: now + environment.channelMessageStorage)
        for phone in phones where phone.isInstalled && phone.follows(id) {
            var loss = draw(.apns, "channel/\(id)/phone/\(phone.index)")
            let dropped = loss.chance(environment.apnsDropAfterAcceptance)
            let routineDelay = loss.uniform(environment.routineDeliveryDelay)
            guard phone.isOnline else { continue }
            if dropped {
                phone.hasLostPush = true
                continue
            }
            phone.receive(push, priority: priority, routineDelay: routineDelay, self)
        }
        return ChannelAnswer(status: 200, milliseconds: milliseconds)
    }
}

/// Standard base64 with padding (channel ids are base64; APNs never promises a length).
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | (Int($1.element) << (16 - 8 * $1.offset)) }
            for position in 0..<4 {
                text.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : "=")
            }
            index += 3
        }
        return text
    }
}
