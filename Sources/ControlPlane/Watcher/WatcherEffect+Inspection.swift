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

extension [WatcherEffect] {
    public var batches: [PushBatch] { compactMap(\.batch) }
    public var logLines: [DecisionLogLine] { compactMap(\.logLine) }
    /// The events of the log lines, in order.
    public var loggedEvents: [DecisionEvent] { logLines.map(\.event) }
}
