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
            let display = guards.isOn(.noNews) ? session.displayState(at: now, silence: silence) : session.displayState
            guard let display else { continue }
            if display == .unknown {
                isTrustworthy = false
                // Unknown is not a state change: a session whose host went down may still be mid-turn,
                // so its baseline is carried over and its timer does not restart when the host returns.
                if let previous = previousSince[session.sid] { since[session.sid] = previous }
                continue
            }
            guard let state = display.rowState else { continue }
            switch state {
            case .working: working += 1
            case .needsInput: needsInput += 1
            case .unrecognized: continue
            }
            let started = previousSince.since(for: session.sid, in: state, now: now)
            since[session.sid] = SinceEntry(state: state, since: started)
            // Shortened so every push of the card fits its size limit (issue 12.8), the same cut in app and server.
            // No news keeps the row and its count (the session may well still work) and says so on its line.
            let title = CardTitle.fitted(session.report.title, besideSid: session.sid)
            let noNewsSince = display == .noNews ? session.heardAt : nil
            let row = Row(sid: session.sid, title: title, state: state, since: started, noNewsSince: noNewsSince)
            active.append(row)
            // The card shows the question of the session that has waited longest (the card's own order).
            if state == .needsInput, let question = CardQuestion.asked(by: session, at: now),
                asked.map({ cardOrder(row, $0.row) }) ?? true
            {
                asked = (row, question)
            }
        }

        active.sort(by: cardOrder)
        // A question takes at least one row's room on every surface that shows it (SurfaceLayout), so the
        // state leaves that row out: what it carries is what is drawn, and the worst push still fits 4 KB.
        let rowLimit = asked == nil ? maxRows : maxRowsBesideQuestion
        let shown = guards.isOn(.maxRows) ? Array(active.prefix(rowLimit)) : active
        let content = ContentState(
            working: working, needsInput: needsInput, rows: shown, more: active.count - shown.count, updatedAt: now,
            question: asked.map { CardQuestion($0.question) })
        return FleetReduction(
            contentState: content, since: since, activeTotal: working + needsInput, isTrustworthy: isTrustworthy)
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
