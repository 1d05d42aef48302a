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
/// `revision` moves on every change, so the watcher can skip re-reducing an unchanged fleet.
public struct FleetSnapshot: Hashable, Sendable {
    public private(set) var revision: UInt64
    public private(set) var sessions: [SessionID: SessionReport]
    public private(set) var hosts: [HostID: HostHeartbeat]

    public init(sessions: [SessionID: SessionReport] = [:], hosts: [HostID: HostHeartbeat] = [:], revision: UInt64 = 0)
    {
        self.sessions = sessions
        self.hosts = hosts
        self.revision = revision
    }

    public mutating func put(_ sid: SessionID, _ report: SessionReport) {
        sessions[sid] = report
        revision &+= 1
    }

    public mutating func remove(_ sid: SessionID) {
        guard sessions.removeValue(forKey: sid) != nil else { return }
        revision &+= 1
    }

    public mutating func heartbeat(_ host: HostID, _ heartbeat: HostHeartbeat) {
        hosts[host] = heartbeat
        revision &+= 1
    }

    /// The hosts known down at `now`.
    public func downHosts(at now: UnixTime) -> Set<HostID> {
        Set(hosts.filter { $0.value.isDown(at: now) }.keys)
    }

    /// The sessions as the reducer takes them.
    ///
    /// In no particular order: keyed by sid there are no duplicates, and the reducer orders rows by a
    /// total order (state, since, sid), so its result does not depend on input order. Not sorting saves
    /// a third of a 50,000-session reduction.
    public func fleetSessions(downHosts: Set<HostID>) -> [FleetSession] {
        sessions.map { sid, report in FleetSession(sid: sid, report: report, isHostDown: downHosts.contains(report.host)) }
    }
}
