#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hand-off from a hook to the per-machine agent `lfg host`: after recording an event in the inbox,
/// the hook rings `$LFG_HOME/host.sock` (a unix datagram socket) with the session's key and exits; the
/// host, woken, delivers that session.
///
/// The rules both sides keep:
/// - A ring is one datagram whose bytes are a session key (``SessionKey``, UTF-8, at most
///   ``maximumKeyBytes``); an empty datagram means "look at every session".
/// - A ring never blocks and never fails the hook: ``ring(sessionKey:)`` answers whether a host is
///   listening, and a hook that hears no host delivers its event itself.
/// - Rings can be lost while the host is busy (its socket queue full: the hook still counts the host as
///   listening). So the event must already be in the inbox before the ring, and a host that wakes must
///   deliver every session with work pending, not only the keys it read (``Listener/receiveKeys()``
///   tells it whether a ring may have been dropped).
public struct HostDoorbell: Sendable {
    /// The socket's file name in `$LFG_HOME`.
    public static let fileName = "host.sock"
    /// The longest datagram a listener reads; longer keys are not rung.
    public static let maximumKeyBytes = 1024

    /// The socket's path.
    public let path: String

    /// The doorbell of `$LFG_HOME` = `home`.
    public init(home: String) { path = home + "/" + Self.fileName }

    /// Whether a host listens on the socket now, found by connecting without sending anything (so no
    /// host is woken): false for no socket, a socket its host left behind, or a path too long.
    public func isListening() -> Bool {
        guard let address = UnixSocketAddress(path: path) else { return false }
        let descriptor = POSIX.datagramSocket()
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        while true {
            if address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Rings for `sessionKey`: true only when a host is listening (it will deliver that session), false
    /// when none is (no socket, a socket its host left behind, a path too long for a socket address).
    /// Never blocks: a host whose queue is full still counts as listening, since it is alive and looks
    /// at every session with work pending when it wakes.
    public func ring(sessionKey: String) -> Bool {
        let bytes = Array(sessionKey.utf8)
        guard bytes.count <= Self.maximumKeyBytes, let address = UnixSocketAddress(path: path) else { return false }
        let descriptor = POSIX.datagramSocket()
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        while true {
            let sent = address.withSockaddr { pointer, length in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), pointer, length) }
            }
            if sent >= 0 { return true }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ENOBUFS: return true
            default: return false  // ENOENT: no host; ECONNREFUSED: a host's socket left behind
            }
        }
    }
}
