/// What one session adds to a fleet reduction, before any device's hidden folders are applied.
///
/// ``FleetReducer/part(of:previousSince:now:guards:silence:)`` is the per-session rule; both the full
/// reduction (``FleetReducer/reduce(_:previousSince:hiddenDirs:now:guards:silence:)``) and the incremental
/// one (``FleetTally``) fold these, so a session counts the same way whichever of the two reads it.
public struct SessionPart: Hashable, Sendable {
    /// How the session shows on the card.
    public enum Share: Hashable, Sendable {
        /// Archived, idle, blocked or unrecognized: no row, no count, no baseline.
        case none
        /// Its host is known down: the count is untrustworthy, and the baseline it had is carried over
        /// unchanged (nil when it had none).
        case unknown(carried: SinceEntry?)
        /// A working or needs-input row, and the question it asks the card (needs-input only).
        case row(Row, asked: Question?)
    }

    public var sid: SessionID
    /// The session's folder: a device whose hidden folders cover it leaves the part out.
    public var cwd: String
    public var share: Share

    public init(sid: SessionID, cwd: String, share: Share) {
        self.sid = sid
        self.cwd = cwd
        self.share = share
    }

    /// The part's sticky baseline: an active row's, or the one an unknown session carries.
    public var since: SinceEntry? {
        switch share {
        case .none: nil
        case .unknown(let carried): carried
        case .row(let row, _): SinceEntry(state: row.state, since: row.since)
        }
    }

    /// When the part may change with no new report: the expiry of the question it asks. Nil: never.
    /// (Silence, the other clock a part depends on, is the caller's: see ``SilenceRule/quietAt(heardAt:)``.)
    public var changesAt: UnixTime? {
        guard case .row(_, let asked?) = share, let expiresAt = asked.expiresAt, expiresAt.isFinite else { return nil }
        return expiresAt
    }
}

extension FleetReducer {
    /// The part `session` plays in a reduction at `now` (see ``SessionPart``).
    ///
    /// - Parameter previousSince: the baselines of the previous reduction; a session whose state is
    ///   unchanged keeps its baseline, one whose state changed starts at `now`.
    public static func part(
        of session: FleetSession, previousSince: SinceMap, now: UnixTime, guards: GuardSet = .all,
        silence: SilenceRule = .standard
    ) -> SessionPart {
        let sid = session.sid
        let cwd = session.report.cwd
        let display = guards.isOn(.noNews) ? session.displayState(at: now, silence: silence) : session.displayState
        guard let display else { return SessionPart(sid: sid, cwd: cwd, share: .none) }
        if display == .unknown {
            // Unknown is not a state change: a session whose host went down may still be mid-turn,
            // so its baseline is carried over and its timer does not restart when the host returns.
            return SessionPart(sid: sid, cwd: cwd, share: .unknown(carried: previousSince[sid]))
        }
        guard let state = display.rowState, state.isCounted else { return SessionPart(sid: sid, cwd: cwd, share: .none) }
        let started = previousSince.since(for: sid, in: state, now: now)
        // Shortened so every push of the card fits its size limit (issue 12.8), the same cut in app and server.
        // No news keeps the row and its count (the session may well still work) and says so on its line.
        let title = CardTitle.fitted(session.report.title, besideSid: sid)
        let noNewsSince = display == .noNews ? session.heardAt : nil
        let row = Row(sid: sid, title: title, state: state, since: started, noNewsSince: noNewsSince)
        let asked = state == .needsInput ? CardQuestion.asked(by: session, at: now) : nil
        return SessionPart(sid: sid, cwd: cwd, share: .row(row, asked: asked))
    }
}

extension RowState {
    /// Working or needs input: a row the card counts (an unrecognized state is not).
    var isCounted: Bool {
        switch self {
        case .working, .needsInput: true
        case .unrecognized: false
        }
    }
}
