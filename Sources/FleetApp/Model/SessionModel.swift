import FleetCore

/// Whether the app knows a host to be reachable.
public enum HostHealth: String, Hashable, Sendable, Codable {
    case up
    /// The host's heartbeat lapsed: its sessions' state is unknown, not idle.
    case knownDown
}

/// One session the app knows of.
public struct SessionEntry: Hashable, Sendable {
    public var sid: SessionID
    public var report: SessionReport
    /// When the server last took a report for it (from the listing), for the silence rule; nil when unknown.
    public var heardAt: UnixTime?
    /// The server's baseline for the session as last listed (``SessionsReply/Session/since``); nil when
    /// the server did not say, and cleared by any change the app learns of without one.
    public var since: SinceEntry?

    public init(sid: SessionID, report: SessionReport, heardAt: UnixTime? = nil, since: SinceEntry? = nil) {
        self.sid = sid
        self.report = report
        self.heardAt = heardAt
        self.since = since
    }

    init(_ listed: SessionsReply.Session) {
        self.init(sid: listed.sid, report: listed.report, heardAt: listed.heardAt, since: listed.since)
    }
}

/// The app's session store: what the list shows and what the card counts.
///
/// A value: the driver holds one and every mutation is an observable change (the controller's second
/// trigger). The card is computed from ``filteredSessions`` (never from ``sessions``) so it never counts
/// what the list hides, and its count is only trusted after a live fetch with no host known down.
public struct SessionModel: Hashable, Sendable {
    /// Every known session in report order (a sid appears once).
    public private(set) var sessions: [SessionEntry] = []
    /// Hosts and whether each is known down.
    public private(set) var hosts: [HostID: HostHealth] = [:]
    /// Folders the person hid: their sessions leave the list and the card.
    public var hiddenDirs: HiddenDirs = []
    /// Whether a live answer from the server has been applied since the app last launched or woke from a
    /// suspension. Hydrating from the local cache seeds the same storage but does not count: a cold
    /// snapshot must not read as a real zero. Nor does what the app knew before a suspension.
    public private(set) var liveSessionsFetchedOnce = false

    public init() {}

    /// Whether each session is mid-turn.
    public var busy: [SessionID: Bool] {
        Dictionary(sessions.map { ($0.sid, $0.report.busy) }, uniquingKeysWith: { first, _ in first })
    }

    /// The prompt each waiting session waits on.
    public var prompts: [SessionID: Prompt] {
        Dictionary(sessions.compactMap { entry in entry.report.prompt.map { (entry.sid, $0) } },
                   uniquingKeysWith: { first, _ in first })
    }

    /// What the app's other servers listed, by server name (their last live answer each). A host that
    /// reports to two control planes puts the same session in both listings: merged, that sid arrives
    /// twice, and the card counts it once only because the reducer drops the second (guard `sid-dedupe`).
    public private(set) var otherServers: [String: [SessionEntry]] = [:]

    /// Every session the app knows: the default server's first, then each other server's, in name order.
    /// A sid two servers know appears twice; the list and the card count it once.
    public var mergedSessions: [SessionEntry] {
        sessions + otherServers.keys.sorted().flatMap { otherServers[$0]! }
    }

    /// The sessions the list shows (none in or below a hidden folder), as the reducer takes them: every
    /// server's, merged (the reducer's first occurrence of a sid wins: the default server's).
    public var filteredSessions: [FleetSession] {
        mergedSessions.filter { !hiddenDirs.hides($0.report.cwd) }.map { entry in
            FleetSession(
                sid: entry.sid, report: entry.report, isHostDown: hosts[entry.report.host] == .knownDown, heardAt: entry.heardAt)
        }
    }

    /// The servers' sticky baselines for the sessions the app knows, each only while it is of the state
    /// the session's report is in now (the first server listing a sid wins, as in ``filteredSessions``).
    /// A server reduces every change as it happens; the app may have slept through some, so these beat its
    /// own (``FleetActivityController``, guard `server-since`).
    public var listedBaselines: SinceMap {
        var baselines: SinceMap = [:]
        for entry in mergedSessions where baselines[entry.sid] == nil {
            // The host's health is left out: for a session of a host known down the reducer carries the
            // baseline over, and the server's is the better one to carry.
            guard let since = entry.since,
                since.state == DisplayState.resolve(entry.report, isHostDown: false)?.rowState
            else { continue }
            baselines[entry.sid] = since
        }
        return baselines
    }

    /// `fleetCountIsTrustworthy`: a live fetch happened and no host is known down. Otherwise a zero is an
    /// unknown, and an unknown must never end or zero a card.
    public var fleetCountIsTrustworthy: Bool {
        liveSessionsFetchedOnce && !hosts.values.contains(.knownDown)
    }

    // MARK: Changes

    /// Seeds the store from the local cache at launch. Does not count as a live fetch.
    public mutating func hydrate(fromCache cached: [SessionEntry]) {
        sessions = Self.unique(cached)
    }

    /// The app is being suspended: from now on what it knows is a cache, not a live answer, until the next
    /// fetch answers. Without this, the foreground sync after a wake rewrote a card the server had kept
    /// right with the content from before the suspension (two sessions overwritten by one).
    public mutating func demoteToCache() { liveSessionsFetchedOnce = false }

    /// Applies a live answer of `GET /api/sessions`: replaces the sessions and the hosts' health.
    public mutating func applyLiveFetch(_ listing: SessionsReply) {
        sessions = Self.unique(listing.sessions.map(SessionEntry.init))
        var health: [HostID: HostHealth] = [:]
        for session in listing.sessions {
            let isDown = session.displayState == .unknown
            health[session.report.host] = isDown || health[session.report.host] == .knownDown ? .knownDown : .up
        }
        hosts = health
        liveSessionsFetchedOnce = true
    }

    /// Applies a live answer of `GET /api/sessions` from one of the app's other servers: replaces what
    /// that server listed. Its hosts' health and the trust in the count stay the default server's.
    public mutating func applyOtherServerFetch(_ listing: SessionsReply, from server: String) {
        otherServers[server] = Self.unique(listing.sessions.map(SessionEntry.init))
    }

    /// Replaces (or adds) one session's report, as a server-sent change does (with the listing's `heardAt`
    /// and `since`), in every server's listing that holds it: it is the same session. A baseline not given
    /// is cleared: one listed before this change may be of a state the session has left and come back to.
    public mutating func upsert(
        _ report: SessionReport, for sid: SessionID, heardAt: UnixTime? = nil, since: SinceEntry? = nil
    ) {
        if let index = sessions.firstIndex(where: { $0.sid == sid }) {
            sessions[index].report = report
            sessions[index].heardAt = heardAt
            sessions[index].since = since
        } else {
            sessions.append(SessionEntry(sid: sid, report: report, heardAt: heardAt, since: since))
        }
        for server in otherServers.keys {
            for index in otherServers[server]!.indices where otherServers[server]![index].sid == sid {
                otherServers[server]![index].report = report
                otherServers[server]![index].heardAt = heardAt
                otherServers[server]![index].since = since
            }
        }
    }

    /// Removes a session (from every server's listing).
    public mutating func remove(_ sid: SessionID) {
        sessions.removeAll { $0.sid == sid }
        for server in otherServers.keys { otherServers[server]!.removeAll { $0.sid == sid } }
    }

    /// Sets whether a session is mid-turn (`store.busy[sid]`).
    public mutating func setBusy(_ isBusy: Bool, for sid: SessionID) {
        guard let index = sessions.firstIndex(where: { $0.sid == sid }) else { return }
        sessions[index].report.busy = isBusy
        sessions[index].since = nil
    }

    /// Sets or clears what a session waits on (`store.prompts[sid]`).
    public mutating func setPrompt(_ prompt: Prompt?, for sid: SessionID) {
        guard let index = sessions.firstIndex(where: { $0.sid == sid }) else { return }
        sessions[index].report.prompt = prompt
        sessions[index].since = nil
    }

    /// Marks a host known down or up again.
    public mutating func setHost(_ host: HostID, health: HostHealth) { hosts[host] = health }

    static func unique(_ entries: [SessionEntry]) -> [SessionEntry] {
        var seen = Set<SessionID>()
        return entries.filter { seen.insert($0.sid).inserted }
    }
}
