/// The fleet-card reducer both writers run: sessions in, the card's content out.
///
/// Pure: time is a parameter, nothing is read or written. The server's watcher, the app's
/// controller and the simulator all call this one function, so whichever writer touched the card
/// last, it says the same thing.
public enum FleetReducer {
    /// Rows the lock screen can show: it gives an activity ~160 pt and centre-clips anything taller,
    /// silently dropping the header (guard `max-rows`).
    public static let maxRows = 3
    /// Rows the state carries beside a question (``CardQuestion``): one less.
    public static let maxRowsBesideQuestion = maxRows - 1

    /// Reduces `sessions` to the card's content at `now`.
    ///
    /// - Parameters:
    ///   - sessions: every known session, in report order; the first occurrence of a sid wins.
    ///   - previousSince: the baselines the previous reduction returned (empty on a cold start). Baselines of
    ///     sessions whose state is unknown (host down) are carried over unchanged.
    ///   - hiddenDirs: sessions whose `cwd` is hidden are left out entirely.
    ///   - now: Unix seconds; becomes `updatedAt` and the `since` of any state change.
    ///   - guards: production passes ``GuardSet/all``; the simulator may switch guards off.
    ///   - silence: when a busy session that said nothing reads as no news (guard `no-news`); only sessions
    ///     with a `heardAt` can be quiet.
    public static func reduce(
        _ sessions: [FleetSession],
        previousSince: SinceMap = [:],
        hiddenDirs: HiddenDirs = [],
        now: UnixTime,
        guards: GuardSet = .all,
        silence: SilenceRule = .standard
    ) -> FleetReduction {
        var seen = Set<SessionID>()
        var active: [Row] = []
        var since: SinceMap = [:]
        var isTrustworthy = true
        var working = 0
        var needsInput = 0
        var asked: (row: Row, question: Question)?

        for session in sessions {
            // A duplicate sid (an in-TUI /resume, a fork before its pidfile is readable) would be
            // double-counted and burn two of the three rows (guard `sid-dedupe`).
            if guards.isOn(.sidDedupe) {
                guard seen.insert(session.sid).inserted else { continue }
            }
            if hiddenDirs.hides(session.report.cwd) { continue }
            let part = part(of: session, previousSince: previousSince, now: now, guards: guards, silence: silence)
            switch part.share {
            case .none: continue
            case .unknown(let carried):
                isTrustworthy = false
                if let carried { since[session.sid] = carried }
            case .row(let row, let question):
                if row.state == .needsInput { needsInput += 1 } else { working += 1 }
                since[session.sid] = SinceEntry(state: row.state, since: row.since)
                active.append(row)
                // The card shows the question of the session that has waited longest (the card's own order).
                if let question, asked.map({ cardOrder(row, $0.row) }) ?? true { asked = (row, question) }
            }
        }

        active.sort(by: cardOrder)
        let content = contentState(
            working: working, needsInput: needsInput, activeCount: active.count, asked: asked?.question, now: now,
            guards: guards
        ) { limit in limit.map { Array(active.prefix($0)) } ?? active }
        return FleetReduction(
            contentState: content, since: since, activeTotal: working + needsInput, isTrustworthy: isTrustworthy)
    }

    /// The card's content from a reduction's totals; `rows(limit)` gives the first `limit` active rows in card
    /// order (nil: all of them).
    static func contentState(
        working: Int, needsInput: Int, activeCount: Int, asked: Question?, now: UnixTime, guards: GuardSet,
        rows: (Int?) -> [Row]
    ) -> ContentState {
        // A question takes at least one row's room on every surface that shows it (SurfaceLayout), so the
        // state leaves that row out: what it carries is what is drawn, and the worst push still fits 4 KB.
        let rowLimit = asked == nil ? maxRows : maxRowsBesideQuestion
        let shown = rows(guards.isOn(.maxRows) ? rowLimit : nil)
        return ContentState(
            working: working, needsInput: needsInput, rows: shown, more: activeCount - shown.count, updatedAt: now,
            question: asked.map { CardQuestion($0) })
    }

    /// The card's row order: needs-input first, then oldest `since`, then sid ascending.
    public static func cardOrder(_ lhs: Row, _ rhs: Row) -> Bool {
        let lhsWaits = lhs.state == .needsInput
        let rhsWaits = rhs.state == .needsInput
        if lhsWaits != rhsWaits { return lhsWaits }
        if lhs.since != rhs.since { return lhs.since < rhs.since }
        return lhs.sid < rhs.sid
    }
}
