/// Finds the longest stretch in which the card may have been frozen (see `FrozenStretch`).
struct FrozenTracker {
    private var openStartAt: Double?
    private var firstAcceptedByToken: [String: Double] = [:]
    private(set) var longest: FrozenStretch?

    /// A start: the new card cannot be updated until it is adopted.
    mutating func open(at ts: Double) { openStartAt = ts }

    /// The start reached nobody, so no card appeared and nothing can be frozen.
    mutating func cancelOpen() { openStartAt = nil }

    /// The unadopted-start stretch, if open, ends at `ts`.
    mutating func close(at ts: Double, endedBy: String) {
        guard let from = openStartAt else { return }
        openStartAt = nil
        consider(FrozenStretch(kind: .unadoptedStart, from: from, to: ts, seconds: ts - from, endedBy: endedBy))
    }

    /// A 200 for an update or end to `token`; remembers the first since it was last pruned.
    mutating func tokenAccepted(_ token: String, at ts: Double, limit: Int) {
        guard firstAcceptedByToken[token] == nil, firstAcceptedByToken.count < limit else { return }
        firstAcceptedByToken[token] = ts
    }

    /// `token` proved dead: its accepted sends since the first one may all have been dropped.
    mutating func tokenPruned(_ token: String, at ts: Double) {
        guard let from = firstAcceptedByToken.removeValue(forKey: token) else { return }
        consider(
            FrozenStretch(
                kind: .deadToken, from: from, to: ts, seconds: ts - from, endedBy: "token-pruned", token: token))
    }

    private mutating func consider(_ stretch: FrozenStretch) {
        if let best = longest, best.seconds >= stretch.seconds { return }
        longest = stretch
    }
}
