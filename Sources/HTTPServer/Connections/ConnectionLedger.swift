/// The connection caps, shared by every event loop: how many connections are open in all and per
/// client, and the counts the server reports. Pure; the loops hold it under one lock.
///
/// It counts, and keeps no connection of its own: a connection's peer is its ``Connection/peer``, and the
/// loop that closes an admitted connection hands that peer back (``close(peer:)``).
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
    private var perPeer: [String: Int] = [:]
    private(set) var counts = Counts()

    init(limits: Limits) { self.limits = limits }

    /// A connection from `peer` opened: admitted (counted until ``close(peer:)``), or refused with the
    /// reason for its 503 (not counted as open).
    mutating func open(peer: String) -> Admission {
        if counts.open >= limits.total {
            counts.refused += 1
            return .refused("the server has \(limits.total) connections open, its limit; retry in a moment")
        }
        if perPeer[peer, default: 0] >= limits.perClient {
            counts.refused += 1
            return .refused("this client has \(limits.perClient) connections open, its limit; close some and retry")
        }
        perPeer[peer, default: 0] += 1
        counts.open += 1
        return .admitted
    }

    /// An admitted connection from `peer` closed.
    mutating func close(peer: String) {
        guard let count = perPeer[peer] else { return }
        perPeer[peer] = count > 1 ? count - 1 : nil
        counts.open -= 1
    }

    /// A connection was closed because its request's headers were not complete by the deadline.
    mutating func expired() { counts.expired += 1 }
}
