import FleetCore

/// Common random numbers: every kind of chance draws from its own generator, keyed by what it belongs to.
///
/// With one shared stream, a guard that adds a single push shifts every later draw, so the run with the
/// guard off is a different random future and its figures measure luck, not the guard
/// (notes/simulator-randomness.md). Here a draw depends only on (seed, kind, key): the third wake coin of
/// phone 0 is the same coin whether or not some server sent an extra push to a dead token first. Switching
/// a guard off then changes only what the guard itself causes.
///
/// The script (workloads, visits, outages) is drawn up front from ``Simulation/script``; everything drawn
/// while the run runs comes from here.
struct RandomStreams {
    /// What a chance belongs to; each kind has its own family of streams.
    enum Kind: String {
        /// APNs latency, transient 5xx and drops after acceptance: (token or channel, its n-th request).
        case apns
        /// Channel management answers: (device and env, n-th request).
        case channelManagement
        /// The background launch after a push-to-start: (phone, its n-th push-started card).
        case wake
        /// A registration or report through the tunnel: (phone, kind of call, n-th of that kind).
        case tunnel
        /// A session change reaching the app's event stream: (phone, truth version).
        case eventStream
        /// A server's tick phase: (server, incarnation).
        case tickPhase
        /// The person swiping a card away: (phone, n-th card that appeared on it).
        case swipe
        /// The delivery bound's APNs latency and priority-5 delay: (phone, its n-th change).
        case deliveryBound
    }

    let seed: UInt64

    /// The generator of one stream. Cheap: a fresh generator per use.
    func generator(_ kind: Kind, _ key: String) -> SplitMix64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in kind.rawValue.utf8 + [0x1F] + key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // One SplitMix64 step over (seed, hash) so nearby seeds and keys give unrelated streams.
        var mixer = SplitMix64(seed: seed ^ hash)
        return SplitMix64(seed: mixer.next())
    }
}

/// Counts per key, so each stream's key can name "the n-th of these" (n from 1).
struct Occurrences {
    private var counts: [String: Int] = [:]

    /// Bumps and returns the count for `key`.
    mutating func next(_ key: String) -> Int {
        let count = (counts[key] ?? 0) + 1
        counts[key] = count
        return count
    }
}
