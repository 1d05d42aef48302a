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
        /// Refused connections left open at once while their 503 lingers; one more is answered and closed
        /// at once (its 503 may then be lost to a reset, but its descriptor is not held).
        var lingeringRefusals: Int
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
    /// Refused connections still open while their 503 lingers: each holds a descriptor outside the caps.
    private(set) var lingeringRefusals = 0

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

    /// Whether a refused connection may stay open while its 503 lingers (then counted until
    /// ``refusalClosed()``), or must be closed at once: without this bound a client reconnecting over its
    /// cap as fast as it can would hold descriptors nobody caps, and run the server out of them for everyone.
    mutating func mayLingerRefusal() -> Bool {
        guard lingeringRefusals < limits.lingeringRefusals else { return false }
        lingeringRefusals += 1
        return true
    }

    /// A refused connection that lingered closed.
    mutating func refusalClosed() { lingeringRefusals -= 1 }

    /// A connection was closed because its request's headers were not complete by the deadline.
    mutating func expired() { counts.expired += 1 }
}
