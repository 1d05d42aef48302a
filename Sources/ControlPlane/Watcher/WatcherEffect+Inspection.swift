import FleetCore
/// Convenience reads of effect lists for drivers, the simulator and tests.
extension WatcherEffect {
    /// The batch, when this effect is a send.
    public var batch: PushBatch? {
        if case .send(let batch) = self { return batch }
        return nil
    }

    /// The log line, when this effect is one.
    public var logLine: DecisionLogLine? {
        if case .log(let line) = self { return line }
        return nil
    }
}

extension WatcherEffect {
    /// The store writes that carry out this effect (empty for sends, log lines and channel requests).
    public var storeWrites: [StoreWrite] {
        switch self {
        case .saveDevice(let deviceId, let record): [.putDevice(deviceId, record)]
        case .saveSince(let changed, let removed):
            (changed.isEmpty ? [] : [.putSince(changed)]) + (removed.isEmpty ? [] : [.deleteSince(removed)])
        case .recordHistory(let event): [.recordHistory(event)]
        case .saveRetiredChannels(let channels): [.putRetiredChannels(channels)]
        case .forgetDevice(let deviceId): [.deleteDevice(deviceId)]
        case .send, .log, .requestChannel: []
        }
    }

    /// The channel request, when this effect is one.
    public var channelRequest: ChannelRequest? {
        if case .requestChannel(let request) = self { return request }
        return nil
    }
}

extension [WatcherEffect] {
    public var channelRequests: [ChannelRequest] { compactMap(\.channelRequest) }
    public var batches: [PushBatch] { compactMap(\.batch) }
    public var logLines: [DecisionLogLine] { compactMap(\.logLine) }
    /// The events of the log lines, in order.
    public var loggedEvents: [DecisionEvent] { logLines.map(\.event) }
}
