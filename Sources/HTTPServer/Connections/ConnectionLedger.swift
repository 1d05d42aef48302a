/// The connection caps, shared by every event loop: how many connections are open in all and per
/// client, and the counts the server reports. Pure; the loops hold it under one lock.
struct ConnectionLedger: Sendable {
    /// The caps.
    struct Limits: Sendable, Equatable {
        /// All connections at once; one more is answered 503.
        var total: Int
        /// One peer address's connections at once; one more is answered 503.
        var perClient: Int
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

    let limits: Limits
    private var peers: [Int32: String] = [:]
    private var perPeer: [String: Int] = [:]
    private(set) var counts = Counts()

    init(limits: Limits) { self.limits = limits }

    /// A connection on `socket` from `peer` opened: admitted, or refused with the reason for its 503.
    mutating func open(_ socket: Int32, peer: String) -> Admission {
        if peers.count >= limits.total {
            counts.refused += 1
            return .refused("the server has \(limits.total) connections open, its limit; retry in a moment")
        }
        if perPeer[peer, default: 0] >= limits.perClient {
            counts.refused += 1
            return .refused("this client has \(limits.perClient) connections open, its limit; close some and retry")
        }
        peers[socket] = peer
        perPeer[peer, default: 0] += 1
        counts.open = peers.count
        return .admitted
    }

    /// The connection on `socket` closed (before its descriptor is closed, so the number is not reused yet).
    mutating func close(_ socket: Int32) {
        guard let peer = peers.removeValue(forKey: socket) else { return }
        let remaining = perPeer[peer, default: 1] - 1
        perPeer[peer] = remaining > 0 ? remaining : nil
        counts.open = peers.count
    }

    /// A connection was closed because its request's headers were not complete by the deadline.
    mutating func expired() { counts.expired += 1 }
}
