import FleetCore

/// A host's last heartbeat (`PUT /api/hosts/{host}`).
public struct HostHeartbeat: Hashable, Sendable, Codable {
    /// When it arrived, Unix seconds.
    public var lastSeen: UnixTime
    public var ttlSeconds: Double

    public init(lastSeen: UnixTime, ttlSeconds: Double) {
        self.lastSeen = lastSeen
        self.ttlSeconds = ttlSeconds
    }

    /// Known down: it promised to call again within its TTL and did not. A host that never sent a
    /// heartbeat has no entry and is up.
    public func isDown(at now: UnixTime) -> Bool { now > lastSeen + ttlSeconds }
}

/// Every session and host the server knows, as one value the watcher reduces.
///
/// `revision` moves on every change of what the reducer reads. `sequence` moves on every put (the same
/// report heard again too: it may end a silence), removal and heartbeat, and the sessions each one touched are
/// logged, so the watcher revisits only those (``sessionsChanged(after:)``) instead of the whole fleet.
public struct FleetSnapshot: Hashable, Sendable {
    public private(set) var revision: UInt64
    public private(set) var sessions: [SessionID: SessionReport]
    public private(set) var hosts: [HostID: HostHeartbeat]
    /// When each session's last report arrived (Unix seconds), for the silence rule (``SilenceRule``). In
    /// memory only: after a restart every stored session counts as heard at the load, so a restart gives
    /// each a fresh grace period instead of calling every busy session "no news" at once.
    public private(set) var heardAt: [SessionID: UnixTime]
    /// The sessions each host reports, so a host going down or up revisits only its own sessions.
    public private(set) var sessionsByHost: [HostID: Set<SessionID>] = [:]
    /// Moves on every put, removal and heartbeat.
    public private(set) var sequence: UInt64 = 0
    private var changeLog = FleetChangeLog()

    public init(
        sessions: [SessionID: SessionReport] = [:], hosts: [HostID: HostHeartbeat] = [:], revision: UInt64 = 0,
        heardAt: UnixTime? = nil
    ) {
        self.sessions = sessions
        self.hosts = hosts
        self.revision = revision
        self.heardAt = heardAt.map { time in sessions.mapValues { _ in time } } ?? [:]
        for (sid, report) in sessions { sessionsByHost[report.host, default: []].insert(sid) }
    }

    /// Replaces a session's report; `heardAt` is when it arrived (nil: a writer that does not track
    /// reception, whose sessions are never "no news").
    ///
    /// The same report again moves no revision: the reducer reads nothing else of it, and when it was
    /// heard reaches the watcher through the change log (a quiet session heard again is no longer quiet).
    public mutating func put(_ sid: SessionID, _ report: SessionReport, heardAt time: UnixTime? = nil) {
        let previous = sessions.updateValue(report, forKey: sid)
        if previous != report { revision &+= 1 }
        if let previous, previous.host != report.host { forget(sid, onHost: previous.host) }
        if previous?.host != report.host { sessionsByHost[report.host, default: []].insert(sid) }
        heardAt[sid] = time
        log(sid)
    }

    public mutating func remove(_ sid: SessionID) {
        guard let previous = sessions.removeValue(forKey: sid) else { return }
        heardAt[sid] = nil
        forget(sid, onHost: previous.host)
        revision &+= 1
        log(sid)
    }

    public mutating func heartbeat(_ host: HostID, _ heartbeat: HostHeartbeat) {
        hosts[host] = heartbeat
        revision &+= 1
        sequence &+= 1
    }

    /// The sessions put or removed after `sequence` (a value this snapshot's ``sequence`` had), or nil when
    /// the log no longer reaches back that far (then every session must be looked at).
    public func sessionsChanged(after sequence: UInt64) -> Set<SessionID>? {
        guard sequence <= self.sequence else { return nil }
        return changeLog.sessions(after: sequence)
    }

    /// The hosts known down at `now`.
    public func downHosts(at now: UnixTime) -> Set<HostID> {
        Set(hosts.filter { $0.value.isDown(at: now) }.keys)
    }

    /// The session `sid` as the reducer takes it, or nil when there is none.
    public func fleetSession(_ sid: SessionID, downHosts: Set<HostID>) -> FleetSession? {
        sessions[sid].map { report in
            FleetSession(sid: sid, report: report, isHostDown: downHosts.contains(report.host), heardAt: heardAt[sid])
        }
    }

    /// The sessions as the reducer takes them.
    ///
    /// In no particular order: keyed by sid there are no duplicates, and the reducer orders rows by a
    /// total order (state, since, sid), so its result does not depend on input order. Not sorting saves
    /// a third of a 50,000-session reduction.
    public func fleetSessions(downHosts: Set<HostID>) -> [FleetSession] {
        sessions.map { sid, report in
            FleetSession(sid: sid, report: report, isHostDown: downHosts.contains(report.host), heardAt: heardAt[sid])
        }
    }

    private mutating func log(_ sid: SessionID) {
        sequence &+= 1
        changeLog.append(sid, at: sequence, keeping: sessions.count)
    }

    private mutating func forget(_ sid: SessionID, onHost host: HostID) {
        sessionsByHost[host]?.remove(sid)
        if sessionsByHost[host]?.isEmpty == true { sessionsByHost[host] = nil }
    }
}

/// The recent session changes of a ``FleetSnapshot``, oldest first; bounded (a reader that fell behind
/// looks at every session instead).
struct FleetChangeLog: Hashable, Sendable {
    struct Entry: Hashable, Sendable {
        var sequence: UInt64
        var sid: SessionID
    }

    private var entries: [Entry] = []
    /// Every change after this sequence is still in `entries`.
    private var floor: UInt64 = 0

    /// Logs `sid`; past twice `sessionCount` entries (at least 4,096) the older half is dropped.
    mutating func append(_ sid: SessionID, at sequence: UInt64, keeping sessionCount: Int) {
        entries.append(Entry(sequence: sequence, sid: sid))
        guard entries.count > max(4_096, 2 * sessionCount) else { return }
        let dropped = entries.count / 2
        floor = entries[dropped - 1].sequence
        entries.removeFirst(dropped)
    }

    func sessions(after sequence: UInt64) -> Set<SessionID>? {
        guard sequence >= floor else { return nil }
        let start = entries.partitioningIndex { $0.sequence > sequence }
        return Set(entries[start...].lazy.map(\.sid))
    }
}
