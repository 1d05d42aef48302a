import FleetCore

/// Pairs each `decide start` with its own card's adoption, and settles its fate: adopted within the
/// window, adopted late, not adopted (missing), not delivered, or (at the end of the log) undetermined.
///
/// A card is adopted when the phone registers that card's update token, a token the device never used
/// before. The watcher starts a card only when it has none, so at most one start waits for its adoption
/// at a time: a new `adopted` belongs to the latest start, and a start still waiting when the next one
/// comes was never adopted (its card's updates went to an older card's token). An `adopted` that
/// re-registers a token already seen is not a new card and adopts nothing.
struct StartLedger {
    private var waiting: StartRecord?
    private var listed: [StartRecord] = []
    private var omitted = 0
    private var counts: [StartRecord.Outcome: Int] = [:]
    /// Tokens the device already used (update and end sends, adoptions): a re-registration of one is not
    /// the adoption of a new card. Bounded; past the bound every adoption counts as new.
    private var knownTokens: Set<String> = []
    /// The action of the device's latest `decide`, for shortfall lines that do not name one.
    var lastDecideAction: PushAction?

    /// A new start: one still waiting was never adopted (missing).
    mutating func started(at ts: Double, tokens: Int?) {
        if var earlier = waiting {
            earlier.outcome = .notAdopted
            settle(earlier)
        }
        waiting = StartRecord(ts: ts, tokens: tokens, outcome: .undetermined)
    }

    private var lastSentToken: String?

    /// An update or end went to `token`: the token of a card that exists.
    mutating func sentToCard(_ token: String) {
        // Most sends repeat the previous one's token: skip the set for them (the parse loop's hot path).
        guard token != lastSentToken else { return }
        lastSentToken = token
        remember(token)
    }

    /// `token` was registered (nil: the line does not say). Returns whether it adopted the waiting start.
    mutating func adopted(at ts: Double, token: String?) -> Bool {
        if let token {
            guard !knownTokens.contains(token) else { return false }
            remember(token)
        }
        guard var start = waiting, ts >= start.ts else { return false }
        waiting = nil
        let after = ts - start.ts
        start.outcome = after <= DeviceTimeline.adoptionWindowSeconds ? .adopted : .adoptedLate
        start.adoptedAfterSeconds = after
        settle(start)
        return true
    }

    /// The waiting start reached no token. Returns whether there was one.
    mutating func markLatestNotDelivered() -> Bool {
        guard var start = waiting else { return false }
        waiting = nil
        start.outcome = .notDelivered
        settle(start)
        return true
    }

    /// The log ended at `lastTs`: a start waiting longer than the window is missing, a younger one undetermined.
    mutating func finish(lastTs: Double) {
        guard var start = waiting else { return }
        waiting = nil
        if lastTs - start.ts > DeviceTimeline.adoptionWindowSeconds { start.outcome = .notAdopted }
        settle(start)
    }

    var summary: StartSummary {
        StartSummary(
            total: counts.values.reduce(0, +) + (waiting == nil ? 0 : 1), adopted: counts[.adopted, default: 0],
            adoptedLate: counts[.adoptedLate, default: 0], notAdopted: counts[.notAdopted, default: 0],
            notDelivered: counts[.notDelivered, default: 0],
            undetermined: counts[.undetermined, default: 0] + (waiting == nil ? 0 : 1),
            listed: listed.sorted { $0.ts < $1.ts }, omitted: omitted)
    }

    private mutating func remember(_ token: String) {
        if knownTokens.count < DeviceTimeline.maxTrackedTokens { knownTokens.insert(token) }
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
