import FleetCore

/// What is really happening: every session's report, which hosts are down, and the exact `since` of
/// every active session. The metrics compare each phone's lock screen against this.
struct Truth {
    /// Every session, in the order it first reported.
    private(set) var sessions: [(sid: SessionID, report: SessionReport)] = []
    private(set) var downHosts: Set<HostID> = []
    /// Exact baselines: set at the instant a session's real state changes (a down host's sessions keep
    /// running, so their baselines hold through the outage).
    private(set) var since: SinceMap = [:]
    /// Bumped on every change, so readers can cache reductions.
    private(set) var version = 0

    /// Replaces (or adds) one session's report.
    mutating func report(_ report: SessionReport, sid: SessionID, now: UnixTime) {
        if let index = sessions.firstIndex(where: { $0.sid == sid }) {
            sessions[index].report = report
        } else {
            sessions.append((sid, report))
        }
        refreshSince(now: now)
    }

    /// Removes a session (`DELETE`); it leaves the card.
    mutating func remove(_ sid: SessionID, now: UnixTime) {
        sessions.removeAll { $0.sid == sid }
        refreshSince(now: now)
    }

    /// The current report of a session.
    func report(of sid: SessionID) -> SessionReport? { sessions.first { $0.sid == sid }?.report }

    mutating func setHost(_ host: HostID, isDown: Bool, now: UnixTime) {
        if isDown { downHosts.insert(host) } else { downHosts.remove(host) }
        refreshSince(now: now)
    }

    /// The sessions as a writer sees them: down hosts flagged.
    var fleetSessions: [FleetSession] {
        sessions.map { FleetSession(sid: $0.sid, report: $0.report, isHostDown: downHosts.contains($0.report.host)) }
    }

    /// What the card of a phone hiding `hiddenDirs` should show at `now`: every guard on, exact `since`.
    func reduction(hiddenDirs: HiddenDirs, now: UnixTime) -> FleetReduction {
        FleetReducer.reduce(fleetSessions, previousSince: since, hiddenDirs: hiddenDirs, now: now)
    }

    private mutating func refreshSince(now: UnixTime) {
        let real = sessions.map { FleetSession(sid: $0.sid, report: $0.report) }
        since = FleetReducer.reduce(real, previousSince: since, now: now).since
        version += 1
    }
}
