import APNs
import FleetCore

/// The watcher's batches as APNs Live Activity pushes, through any `PushSender` (HTTP/2 in production,
/// the in-process stand-in in demos and tests), and its channel requests through a ``ChannelManager``.
///
/// Each target gets its own push, all in flight at once; the answer of each becomes a ``TokenResult``.
/// A broadcast batch is one publish to its channel; its answer becomes a ``ChannelAnswer``.
public struct APNsPushGateway: PushGateway {
    let sender: any PushSender
    let channels: (any ChannelManager)?
    let bundleID: BundleID

    /// - Parameter channels: the channel management API; nil leaves the server in token mode (every channel
    ///   request answers a failure that names why, and devices fall back).
    public init(sender: any PushSender, channels: (any ChannelManager)? = nil, bundleID: BundleID) {
        self.sender = sender
        self.channels = channels
        self.bundleID = bundleID
    }

    public func publish(_ batch: PushBatch) async -> ChannelAnswer {
        guard let channel = batch.channel else { return ChannelAnswer(status: 0, failure: "not a broadcast batch") }
        let request: PushRequest
        do {
            // Policy 1 keeps the latest message for an offline phone up to 8 hours (see cardChannelStoragePolicy).
            let expiration = cardChannelStoragePolicy.broadcastExpiration(now: UnixSeconds(batch.decidedAt.rounded(.down)))
            request = try PushRequest.broadcast(
                Self.payload(for: batch), channel: channel.id, environment: channel.env, bundleID: bundleID,
                priority: batch.priority, expiration: expiration)
        } catch {
            return ChannelAnswer(status: 0, failure: "not sent: \(error)")
        }
        let response = await sender.send(request)
        return ChannelAnswer(
            status: response.status, reason: response.reason, failure: response.failure?.description,
            milliseconds: response.latencyMilliseconds)
    }

    public func perform(_ request: ChannelRequest) async -> ChannelAnswer {
        guard let channels else {
            return ChannelAnswer(status: 0, failure: "no channel management API configured")
        }
        let call: ChannelManagementRequest
        switch request {
        case .create(_, let env, let policy):
            call = .create(storagePolicy: policy, bundleID: bundleID, environment: env)
        case .delete(let channel):
            call = .delete(channel.id, bundleID: bundleID, environment: channel.env)
        }
        let response = await channels.send(call)
        return ChannelAnswer(
            status: response.status, reason: response.reason, failure: response.failure?.description,
            channelId: response.channelID, milliseconds: response.latencyMilliseconds)
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
        case .start:
            .start(
                state: batch.contentState, timestamp: batch.decidedAt, staleDate: batch.staleDate,
                inputPushChannel: batch.inputPushChannel)
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
