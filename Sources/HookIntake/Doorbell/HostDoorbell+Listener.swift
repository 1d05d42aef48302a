#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HostDoorbell {
    /// The host's side of the doorbell: the bound socket at `$LFG_HOME/host.sock`.
    ///
    /// Wait on ``fileDescriptor`` (readable = rung) with your own event loop, or call
    /// ``waitForRing(timeoutSeconds:)``; then ``receiveKeys()`` reads every ring pending. The socket
    /// file is removed when the listener is closed or deinitialised (only while it is still this
    /// listener's). One listener per `$LFG_HOME`: a second one is refused while the first answers.
    public final class Listener: Sendable {
        /// Ready to read when rung; non-blocking. Owned by the listener: do not close it yourself.
        public let fileDescriptor: Int32
        /// The socket's path.
        public let path: String
        private let inode: ino_t

        /// Binds `$LFG_HOME/host.sock` (mode 0600). A socket file left by a host that died is replaced;
        /// throws ``ListenerError/anotherHostListens(_:)`` when a live host holds it.
        public init(home: String) throws(ListenerError) {
            let path = home + "/" + HostDoorbell.fileName
            guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
            let descriptor = POSIX.datagramSocket()
            guard descriptor >= 0 else { throw .system(SystemCallError("socket for \(path)")) }
            var bound = address.withSockaddr { bind(descriptor, $0, $1) } == 0
            if !bound, errno == EADDRINUSE {
                guard !HostDoorbell.isAnswered(address) else {
                    close(descriptor)
                    throw .anotherHostListens(path)
                }
                unlink(path)
                bound = address.withSockaddr { bind(descriptor, $0, $1) } == 0
            }
            guard bound else {
                let error = SystemCallError("bind \(path)")
                close(descriptor)
                throw .system(error)
            }
            chmod(path, 0o600)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var status = stat()
            stat(path, &status)
            fileDescriptor = descriptor
            self.path = path
            inode = status.st_ino
        }

        /// What ``receiveKeys()`` read.
        public struct Rings: Hashable, Sendable {
            /// The session keys rung, first ring first, each once.
            public var keys: [String]
            /// Whether an empty ring asked to look at every session.
            public var everySession: Bool

            public init(keys: [String], everySession: Bool) {
                self.keys = keys
                self.everySession = everySession
            }
        }

        /// Reads every ring pending without blocking (an empty result when none).
        public func receiveKeys() -> Rings {
            var rings = Rings(keys: [], everySession: false)
            var seen = Set<String>()
            var buffer = [UInt8](repeating: 0, count: HostDoorbell.maximumKeyBytes + 1)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return rings
                }
                guard count > 0, count <= HostDoorbell.maximumKeyBytes else {
                    rings.everySession = true
                    continue
                }
                let key = String(decoding: buffer[0..<count], as: UTF8.self)
                if seen.insert(key).inserted { rings.keys.append(key) }
            }
        }

        /// Blocks until rung or `timeoutSeconds` pass (nil: no limit); true when a ring is pending.
        public func waitForRing(timeoutSeconds: Double?) -> Bool {
            var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = timeoutSeconds.map { Int32(min(max(0, $0) * 1000, Double(Int32.max))) } ?? -1
            while true {
                let ready = poll(&request, 1, milliseconds)
                if ready < 0, errno == EINTR { continue }
                return ready > 0
            }
        }

        deinit {
            var status = stat()
            if stat(path, &status) == 0, status.st_ino == inode { unlink(path) }
            close(fileDescriptor)
        }
    }

    /// Why a listener could not start.
    public enum ListenerError: Error, Hashable, Sendable, CustomStringConvertible {
        case pathTooLong(String)
        case anotherHostListens(String)
        case system(SystemCallError)

        public var description: String {
            switch self {
            case .pathTooLong(let path):
                "\(path) is too long for a unix socket address (at most 103 bytes); set LFG_HOME to a shorter folder"
            case .anotherHostListens(let path): "another lfg host is listening on \(path); run only one per LFG_HOME"
            case .system(let error): "\(error); check that LFG_HOME is a writable folder"
            }
        }
    }

    /// Whether a live listener answers at `address` (a connect is refused on a socket nobody holds).
    static func isAnswered(_ address: UnixSocketAddress) -> Bool {
        let probe = POSIX.datagramSocket()
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return address.withSockaddr { connect(probe, $0, $1) } == 0
    }
}
