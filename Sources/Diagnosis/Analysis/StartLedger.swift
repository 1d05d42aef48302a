import FleetCore

/// Tracks each `decide start` until its fate is known: adopted within the window, not adopted,
/// not delivered, or (at the end of the log) undetermined.
struct StartLedger {
    private var pending: [StartRecord] = []
    private var listed: [StartRecord] = []
    private var omitted = 0
    private var counts: [StartRecord.Outcome: Int] = [:]
    /// The action of the device's latest `decide`, for shortfall lines that do not name one.
    var lastDecideAction: PushAction?

    mutating func started(at ts: Double, tokens: Int?) {
        pending.append(StartRecord(ts: ts, tokens: tokens, outcome: .undetermined))
    }

    /// Every start still waiting whose window includes `ts` is adopted.
    mutating func adopted(at ts: Double) {
        expire(now: ts)
        for var start in pending {
            start.outcome = .adopted
            start.adoptedAfterSeconds = ts - start.ts
            settle(start)
        }
        pending.removeAll()
    }

    /// The latest waiting start reached no token. Returns whether there was one.
    mutating func markLatestNotDelivered() -> Bool {
        guard var start = pending.popLast() else { return false }
        start.outcome = .notDelivered
        settle(start)
        return true
    }

    /// Starts whose window closed before `now` without an adoption are not adopted.
    mutating func expire(now: Double) {
        while let first = pending.first, now - first.ts > DeviceTimeline.adoptionWindowSeconds {
            var start = pending.removeFirst()
            start.outcome = .notAdopted
            settle(start)
        }
    }

    /// The log ended at `lastTs`: windows that closed are not adopted, open ones undetermined.
    mutating func finish(lastTs: Double) {
        expire(now: lastTs)
        for start in pending { settle(start) }
        pending.removeAll()
    }

    var summary: StartSummary {
        StartSummary(
            total: counts.values.reduce(0, +) + pending.count, adopted: counts[.adopted, default: 0],
            notAdopted: counts[.notAdopted, default: 0], notDelivered: counts[.notDelivered, default: 0],
            undetermined: counts[.undetermined, default: 0] + pending.count,
            listed: listed.sorted { $0.ts < $1.ts }, omitted: omitted)
    }

    private mutating func settle(_ start: StartRecord) {
        counts[start.outcome, default: 0] += 1
        listed.append(start)
        if listed.count > DeviceTimeline.maxListedStarts {
            // Keep the newest; drop the oldest (sorted on output, so order here does not matter).
            if let oldest = listed.indices.min(by: { listed[$0].ts < listed[$1].ts }) { listed.remove(at: oldest) }
            omitted += 1
        }
    }
}
