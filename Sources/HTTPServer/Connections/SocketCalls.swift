internal import CEpoll
internal import Glibc

/// The socket system calls the server makes, each retried on `EINTR` and reporting `errno` as a value.
enum SocketCalls {
    /// What a read or write did.
    enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case moved(Int)
        /// Nothing now; epoll says when to try again.
        case wouldBlock
        /// The peer closed its side (reads only).
        case ended
        /// The connection failed (reset, broken pipe); close it.
        case failed(Int32)
    }

    /// A listening IPv4 TCP socket on `address:port` (non-blocking) and the port it got; nil with `errno` set.
    static func listen(address: String, port: UInt16, backlog: Int32) -> (socket: Int32, port: UInt16)? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var bound = sockaddr_in()
        bound.sin_family = sa_family_t(AF_INET)
        bound.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let isListening = inet_pton(AF_INET, address, &bound.sin_addr) == 1
            && withUnsafeMutablePointer(to: &bound) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(socket, address, length) == 0 && Glibc.listen(socket, backlog) == 0
                        && getsockname(socket, address, &length) == 0
                }
            }
        guard isListening else {
            Glibc.close(socket)
            return nil
        }
        return (socket, UInt16(bigEndian: bound.sin_port))
    }

    /// What `accept` gave.
    enum Accepted {
        case connection(socket: Int32, peer: String)
        /// No connection is waiting.
        case none
        /// Out of descriptors or memory: stop accepting for a moment.
        case exhausted
    }

    /// Takes one waiting connection off `listener` (non-blocking, close-on-exec, `TCP_NODELAY`).
    static func accept(_ listener: Int32) -> Accepted {
        while true {
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let socket = withUnsafeMutablePointer(to: &peer) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    lfg_epoll_accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if socket >= 0 {
                var one: Int32 = 1
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return .connection(socket: socket, peer: address(of: peer))
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted
            default: return .none
            }
        }
    }

    /// Reads into `buffer`.
    static func receive(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .moved(count) }
            if count == 0 { return .ended }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Writes from `bytes` (never raising `SIGPIPE`).
    static func send(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        while true {
            let count = Glibc.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count > 0 { return .moved(count) }
            if count == 0 { return .wouldBlock }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// The dotted-quad text of an IPv4 address.
    private static func address(of peer: sockaddr_in) -> String {
        var address = peer.sin_addr
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET_ADDRSTRLEN)) { buffer in
            guard let base = buffer.baseAddress, inet_ntop(AF_INET, &address, base, socklen_t(buffer.count)) != nil else {
                return "unknown"
            }
            return String(cString: base)
        }
    }
}
