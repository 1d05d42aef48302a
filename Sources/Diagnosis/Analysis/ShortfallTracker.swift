import FleetCore

/// Counts `partial` / `none-accepted` / `no-tokens` lines and the runs of decides that kept falling short.
///
/// A run grows with every `partial` or `none-accepted`; a `decide` whose previous decide met its
/// threshold (no shortfall line between them) closes it.
struct ShortfallTracker {
    private var partial = 0
    private var noneAccepted = 0
    private var noTokens = 0
    private var runs = 0
    private var current: ShortfallRun?
    private var longest: ShortfallRun?
    private var isPreviousDecideShort = false
    private var hasDecided = false

    mutating func decided() {
        if hasDecided, !isPreviousDecideShort { closeRun() }
        hasDecided = true
        isPreviousDecideShort = false
    }

    mutating func fellShort(_ event: DecisionEvent, at ts: Double) {
        switch event {
        case .partial: partial += 1
        case .noneAccepted: noneAccepted += 1
        default:
            noTokens += 1
            return
        }
        isPreviousDecideShort = true
        if var run = current {
            run.shortfalls += 1
            run.to = ts
            current = run
        } else {
            runs += 1
            current = ShortfallRun(shortfalls: 1, from: ts, to: ts, isOpen: false)
        }
    }

    func summary(lastTs: Double) -> ShortfallSummary {
        var copy = self
        if var open = copy.current {
            open.isOpen = true
            copy.current = open
            copy.closeRun()
        }
        return ShortfallSummary(
            partial: partial, noneAccepted: noneAccepted, noTokens: noTokens, runs: runs, longestRun: copy.longest)
    }

    private mutating func closeRun() {
        guard let run = current else { return }
        if let best = longest, (best.shortfalls, best.to - best.from) >= (run.shortfalls, run.to - run.from) {
        } else {
            longest = run
        }
        current = nil
    }
}
