import FleetCore

/// What is really happening: every session process's report, which hosts are down, and the exact `since`
/// of every active session. The metrics compare each phone's lock screen against this.
///
/// Sessions are kept as processes in report order: two processes may report one sid (an in-TUI
/// `/resume`, a fork before its pidfile is readable), which is the duplicate shape `sid-dedupe` exists for.
struct Truth {
    struct Process: Hashable {
        var key: String
        var sid: SessionID
        var report: SessionReport
    }

    private(set) var processes: [Process] = []
    private(set) var downHosts: Set<HostID> = []
    /// Exact baselines: set at the instant a session's real state changes.
    private(set) var since: SinceMap = [:]
    /// Bumped on every change, so readers can cache reductions.
    private(set) var version = 0

    /// Replaces (or adds) one process's report.
    mutating func report(_ report: SessionReport, sid: SessionID, process: String? = nil, now: UnixTime) {
        let key = process ?? sid.rawValue
        if let index = processes.firstIndex(where: { $0.key == key }) {
            processes[index].report = report
        } else {
            processes.append(Process(key: key, sid: sid, report: report))
        }
        refreshSince(now: now)
    }

    /// Removes one process (a `DELETE`); its session leaves the card.
    mutating func remove(process key: String, now: UnixTime) {
        processes.removeAll { $0.key == key }
        refreshSince(now: now)
    }

    /// The sid a process reports for.
    func sid(ofProcess key: String) -> SessionID? { processes.first { $0.key == key }?.sid }

    /// The current report of a session (its first process).
    func report(of sid: SessionID) -> SessionReport? { processes.first { $0.sid == sid }?.report }

    mutating func setHost(_ host: HostID, isDown: Bool, now: UnixTime) {
        if isDown { downHosts.insert(host) } else { downHosts.remove(host) }
        refreshSince(now: now)
    }

    /// The sessions as a writer sees them: duplicates included, down hosts flagged.
    var fleetSessions: [FleetSession] {
        processes.map { FleetSession(sid: $0.sid, report: $0.report, isHostDown: downHosts.contains($0.report.host)) }
    }

    /// What the card of a phone hiding `hiddenDirs` should show at `now`: every guard on, exact `since`.
    func reduction(hiddenDirs: HiddenDirs, now: UnixTime) -> FleetReduction {
        FleetReducer.reduce(fleetSessions, previousSince: since, hiddenDirs: hiddenDirs, now: now)
    }

    /// Active sids of the real state: hosts that are down still run their sessions.
    private mutating func refreshSince(now: UnixTime) {
        let real = processes.map { FleetSession(sid: $0.sid, report: $0.report) }
        since = FleetReducer.reduce(real, previousSince: since, now: now).since
        version += 1
    }
}
