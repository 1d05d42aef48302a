import Glibc
import Synchronization

/// A nonblocking TCP socket descriptor: connecting, listening, accepting.
public final class TCPSocket: ByteStream {
    public let descriptor: Int32
    /// Atomic: the loop thread and a shutdown (or `deinit`) elsewhere may both close; closing a descriptor
    /// twice can close one that was reused meanwhile by another connection in the process.
    private let closed = Atomic<Bool>(false)

    /// Whether ``close()`` has run (the descriptor number may now belong to another socket).
    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    public init(adopting descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        _ = Glibc.close(descriptor)
    }

    /// After ``close()`` the descriptor number may belong to another socket: reads and writes then
    /// answer `.closed` without touching it.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamResult {
        guard !isClosed else { return .closed }
        let count = Glibc.recv(descriptor, buffer.baseAddress, buffer.count, 0)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: false) }
        return .failed("recv: " + Self.systemError())
    }

    public func write(_ bytes: UnsafeRawBufferPointer) -> StreamResult {
        guard !isClosed else { return .closed }
        let count = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if count > 0 { return .bytes(count) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: true) }
        return .failed("send: " + Self.systemError())
    }

    /// Starts a nonblocking connect to `host:port` (numeric or resolvable name); poll for writability,
    /// then call ``connectResult()``.
    public static func connect(host: String, port: UInt16) throws(WireError) -> TCPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw WireError("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw WireError("socket: " + systemError()) }
        let socket = TCPSocket(adopting: descriptor)
        socket.setNoDelay()
        if Glibc.connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0, errno != EINPROGRESS {
            throw WireError("connect to \(host):\(port): " + systemError())
        }
        return socket
    }

    /// After the socket polled writable: nil when connected, else why it failed.
    public func connectResult() -> String? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return Self.systemError() }
        return error == 0 ? nil : String(cString: strerror(error))
    }

    /// A nonblocking listener on `127.0.0.1:port` (0 picks a free port); returns it and the bound port.
    public static func listen(port: UInt16, loopbackOnly: Bool = true) throws(WireError) -> (TCPSocket, UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw WireError("socket: " + systemError()) }
        let socket = TCPSocket(adopting: descriptor)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = (loopbackOnly ? INADDR_LOOPBACK : INADDR_ANY).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw WireError("bind to port \(port): " + systemError() + "; pick another --port") }
        guard Glibc.listen(descriptor, 512) == 0 else { throw WireError("listen: " + systemError()) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one pending connection (nonblocking), or nil when none is waiting.
    public func accept() -> TCPSocket? {
        let descriptor = Glibc.accept(self.descriptor, nil, nil)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let socket = TCPSocket(adopting: descriptor)
        socket.setNoDelay()
        return socket
    }

    func setNoDelay() {
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    static func systemError() -> String { String(cString: strerror(errno)) }
}
