/// The pure part of ``ConnectionGuard``: which connections are open, per client, and whose headers are due when.
struct ConnectionLedger: Sendable {
    /// The caps and the deadline.
    struct Limits: Sendable, Equatable {
        /// All connections at once; one more is answered 503.
        var total: Int
        /// One peer address's connections at once; one more is answered 503.
        var perClient: Int
        /// A request's headers must be complete this long after the connection opened (or after the
        /// previous request on it finished); past it the connection is shut.
        var headerDeadline: Duration
    }

    enum Admission: Equatable {
        case admitted
        case refused(String)
    }

    struct Counts: Equatable, Sendable {
        var open = 0
        var refused = 0
        var expired = 0
    }

    private struct Entry {
        var socket: Int32
        var peer: String
        var headersDue: ContinuousClock.Instant?
    }

    let limits: Limits
    private var entries: [Int: Entry] = [:]
    private var perPeer: [String: Int] = [:]
    private(set) var counts = Counts()

    init(limits: Limits) { self.limits = limits }

    mutating func open(_ key: Int, socket: Int32, peer: String, now: ContinuousClock.Instant) -> Admission {
        if entries.count >= limits.total {
            counts.refused += 1
            return .refused("the server has \(limits.total) connections open, its limit; retry in a moment")
        }
        if perPeer[peer, default: 0] >= limits.perClient {
            counts.refused += 1
            return .refused("this client has \(limits.perClient) connections open, its limit; close some and retry")
        }
        entries[key] = Entry(socket: socket, peer: peer, headersDue: now + limits.headerDeadline)
        perPeer[peer, default: 0] += 1
        counts.open = entries.count
        return .admitted
    }

    mutating func headersArrived(_ key: Int) { entries[key]?.headersDue = nil }

    mutating func awaitHeaders(_ key: Int, now: ContinuousClock.Instant) {
        entries[key]?.headersDue = now + limits.headerDeadline
    }

    mutating func close(_ key: Int) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        let remaining = perPeer[entry.peer, default: 1] - 1
        perPeer[entry.peer] = remaining > 0 ? remaining : nil
        counts.open = entries.count
    }

    /// The sockets whose headers are overdue at `now`; each is reported once.
    mutating func overdue(now: ContinuousClock.Instant) -> [Int32] {
        var sockets: [Int32] = []
        for (key, entry) in entries {
            guard let due = entry.headersDue, due <= now else { continue }
            entries[key]?.headersDue = nil
            sockets.append(entry.socket)
        }
        counts.expired += sockets.count
        return sockets
    }
}
