import ControlPlane
import FleetApp
import FleetAppTesting
import FleetCore

/// APNs as the seed met it, and as the realism notes ask: latency, rare 5xx, a dead Live Activity token that
/// answers 200 and drops the payload, a rotted push-to-start token that does the same, 410 only for a
/// deleted app, 400 `BadDeviceToken` for a token no install ever had, occasional drops after a 200, and
/// for a phone that is offline, storage of the last push per topic (token pushes carry no
/// `apns-expiration`, so APNs keeps the newest one and hands it over on reconnect).
final class SimulatedAPNs {
    /// Which phone minted each token the servers were ever handed (tokens are opaque to APNs' callers).
    private var owners: [String: Int] = [:]
    /// The last Live Activity push per offline phone (one topic: the app's `.push-type.liveactivity`).
    private var stored: [Int: StoredPush] = [:]
    /// Broadcast channels APNs knows (created and not deleted), with their storage policy.
    private(set) var channels: [String: SimulatedChannel] = [:]

    struct StoredPush {
        var push: IncomingPush
        var priority: Int
    }

    struct SimulatedChannel {
        /// 0: nothing kept for an offline phone; 1: the latest message, within its expiration.
        var storagePolicy: Int
        /// The latest message and when it expires (policy 1 only).
        var latest: (push: IncomingPush, priority: Int, expiresAt: Double)?
        /// When each recent publish happened (for `TooManyRequests`).
        var publishes: [Double] = []
    }

    func noteOwner(_ hex: String, phone index: Int) { owners[hex] = index }

    func owner(of hex: String) -> Int? { owners[hex] }

    /// Whether a channel id names a live channel (a start naming a deleted one starts nothing).
    func channelExists(_ id: String) -> Bool { channels[id] != nil }

    func channelCreated(_ id: String, policy: Int) { channels[id] = SimulatedChannel(storagePolicy: policy) }

    /// Deletes a channel; false when APNs did not know it.
    func channelDeleted(_ id: String) -> Bool { channels.removeValue(forKey: id) != nil }

    /// Counts a publish on `id`; false (429) past `limitPerMinute` in the last minute.
    func notePublish(on id: String, at now: Double, limitPerMinute: Int) -> Bool {
        guard var channel = channels[id] else { return false }
        channel.publishes.removeAll { $0 + 60 <= now }
        guard channel.publishes.count < limitPerMinute else { return false }
        channel.publishes.append(now)
        channels[id] = channel
        return true
    }

    /// A policy-1 channel keeps its latest message for offline phones until `expiresAt`.
    func storeLatest(_ push: IncomingPush, priority: Int, on id: String, until expiresAt: Double) {
        guard channels[id]?.storagePolicy == 1 else { return }
        channels[id]?.latest = (push, priority, expiresAt)
    }

    /// Keeps `push` for an offline phone: the newest replaces whatever was stored.
    func store(_ push: IncomingPush, priority: Int, for phone: Phone) {
        stored[phone.index] = StoredPush(push: push, priority: priority)
    }

    /// The phone is back: hand over the stored token push, and each policy-1 channel's latest message
    /// for the channels its live cards follow.
    func reconnected(_ phone: Phone, _ simulation: Simulation) {
        if let kept = stored.removeValue(forKey: phone.index) {
            phone.receive(kept.push, priority: kept.priority, routineDelay: 0, simulation)
        }
        let followed = Set(phone.rig.host.fleetActivities.compactMap { phone.rig.host.channel(of: $0.id) })
        for id in followed.sorted() {
            guard let latest = channels[id]?.latest, latest.expiresAt > simulation.now else { continue }
            phone.receive(latest.push, priority: latest.priority, routineDelay: 0, simulation)
        }
    }
}

extension Simulation {
    /// Sends one token's push of `batch` through the simulated APNs; `answered` gets the result later.
    ///
    /// The phone sees the push (if it goes anywhere) at the instant the server gets its answer.
    func sendThroughAPNs(_ target: PushTarget, of batch: PushBatch, answered: @escaping (TokenResult, Simulation) -> Void) {
        let phone = phones.firstIndex { $0.device == batch.deviceId }
        notePushSent(batch, phone: phone)
        note("apns: \(batch.action.rawValue) -> \(target.shortHex) (\(target.env.rawValue))")
        var chance = draw(.apns, target.hex)
        let latency = chance.uniform(environment.apnsLatency)
        let isTransientFailure = chance.chance(environment.apnsTransientFailure[target.env] ?? 0)
        let isDroppedAfterAcceptance = chance.chance(environment.apnsDropAfterAcceptance)
        let routineDelay = chance.uniform(environment.routineDeliveryDelay)
        after(latency) { simulation in
            let (status, reason) = simulation.answer(target, of: batch, transientFailure: isTransientFailure)
            simulation.note("apns: \(batch.action.rawValue) \(target.shortHex) answered \(status)")
            if status == 200, let push = Self.incoming(target, batch), let index = simulation.apns.owner(of: target.hex) {
                if isDroppedAfterAcceptance {
                    simulation.phones[index].hasLostPush = true
                } else {
                    simulation.hand(push, priority: simulation.priority(of: batch), routineDelay: routineDelay,
                                    to: simulation.phones[index])
                }
            }
            answered(
                TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: latency * 1000),
                simulation)
        }
    }

    /// The batch's `apns-priority` (10 or 5).
    /// Every Live Activity push the server sends, by either path: counted for the metrics, and counted again
    /// when it carries words (``wordedPushes``).
    func notePushSent(_ batch: PushBatch, phone: Int?) {
        metrics.pushSent(phone: phone, content: batch.contentState, priority: priority(of: batch), self)
        if !batch.contentState.isWordless { wordedPushes += 1 }
    }

    func priority(of batch: PushBatch) -> Int { batch.priority.rawValue }

    /// APNs hands a push to a phone: at once if it is online, else stored for its reconnect.
    func hand(_ push: IncomingPush, priority: Int, routineDelay: Double, to phone: Phone) {
        guard phone.isOnline else {
            apns.store(push, priority: priority, for: phone)
            return
        }
        phone.receive(push, priority: priority, routineDelay: routineDelay, self)
    }

    /// APNs' status for one token: 200 for a dead card's token, a rotted push-to-start token and a live
    /// card alike.
    private func answer(_ target: PushTarget, of batch: PushBatch, transientFailure: Bool) -> (Int, String?) {
        if transientFailure { return (503, "ServiceUnavailable") }
        guard let index = apns.owner(of: target.hex), PushToken(hex: target.hex) != nil else {
            return (400, "BadDeviceToken")
        }
        guard phones[index].isInstalled else { return (410, "Unregistered") }
        return (200, nil)
    }

    /// What the phone receives for one token of `batch`, or nil when the pairing carries nothing.
    private static func incoming(_ target: PushTarget, _ batch: PushBatch) -> IncomingPush? {
        guard let token = PushToken(hex: target.hex) else { return nil }
        switch (target.kind, batch.action) {
        case (.pushToStart, .start):
            return .start(
                token, batch.contentState, staleDate: batch.staleDate, inputPushChannel: batch.inputPushChannel?.rawValue)
        case (.update, .update), (.update, .end):
            return .token(token, livePush(batch))
        default:
            return nil
        }
    }

    /// The update or end a batch carries, as iOS applies it.
    static func livePush(_ batch: PushBatch) -> LiveActivityPush {
        guard batch.action == .end else {
            return .update(batch.contentState, timestamp: batch.decidedAt, staleDate: batch.staleDate)
        }
        let dismissal: DismissalPolicy =
            (batch.dismissalDate ?? batch.decidedAt) <= batch.decidedAt ? .immediate : .after(batch.dismissalDate!)
        return .end(batch.contentState, dismissal: dismissal, timestamp: batch.decidedAt)
    }
}
