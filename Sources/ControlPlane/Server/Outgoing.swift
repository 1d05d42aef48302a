import FleetCore

/// What one step of the watcher sends to APNs: card pushes and channel-management requests.
public struct Outgoing: Hashable, Sendable {
    public var batches: [PushBatch] = []
    public var channelRequests: [ChannelRequest] = []

    public init(batches: [PushBatch] = [], channelRequests: [ChannelRequest] = []) {
        self.batches = batches
        self.channelRequests = channelRequests
    }

    public var isEmpty: Bool { batches.isEmpty && channelRequests.isEmpty }

    /// The batches `isSetAside` picks, apart from everything else (channel requests stay with the rest).
    public func splitting(_ isSetAside: (PushBatch) -> Bool) -> (rest: Outgoing, setAside: Outgoing) {
        var rest = Outgoing(channelRequests: channelRequests)
        var setAside = Outgoing()
        for batch in batches {
            if isSetAside(batch) { setAside.batches.append(batch) } else { rest.batches.append(batch) }
        }
        return (rest, setAside)
    }
}

extension PushGateway {
    /// Sends everything in `outgoing` at once and returns APNs' answers as watcher events, batches first
    /// in batch order, then channel answers in request order (so every run feeds them back the same way).
    ///
    /// - Parameter now: the wall clock, read as each answer is turned into an event.
    public func carryOut(_ outgoing: Outgoing, now: @escaping @Sendable () -> UnixTime) async -> [WatcherEvent] {
        let answers = await withTaskGroup(of: GatewayAnswer.self) { group in
            for batch in outgoing.batches {
                group.addTask {
                    guard batch.isBroadcast else {
                        return .receipt(PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: await deliver(batch)))
                    }
                    return .receipt(PushReceipt(
                        batchId: batch.id, deviceId: batch.deviceId, results: [], broadcast: await publish(batch)))
                }
            }
            for (index, request) in outgoing.channelRequests.enumerated() {
                group.addTask { .channel(index, request, await perform(request)) }
            }
            var answers: [GatewayAnswer] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
        let at = now()
        var receipts: [PushReceipt] = []
        var channelAnswers: [(Int, ChannelRequest, ChannelAnswer)] = []
        for answer in answers {
            switch answer {
            case .receipt(let receipt): receipts.append(receipt)
            case .channel(let index, let request, let reply): channelAnswers.append((index, request, reply))
            }
        }
        receipts.sort { $0.batchId < $1.batchId }
        channelAnswers.sort { $0.0 < $1.0 }
        return receipts.map { .pushAnswered($0, at: at) }
            + channelAnswers.map { _, request, reply in
                switch request {
                case .create(let deviceId, let env, _): .channelCreationAnswered(deviceId, env, reply, at: at)
                case .delete(let channel): .channelDeletionAnswered(channel, reply, at: at)
                }
            }
    }
}

/// One answer inside ``PushGateway/carryOut(_:now:)``.
private enum GatewayAnswer: Sendable {
    case receipt(PushReceipt)
    case channel(Int, ChannelRequest, ChannelAnswer)
}
