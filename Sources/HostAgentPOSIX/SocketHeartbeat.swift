import FleetCore
import HostAgent

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``HeartbeatSender`` over a plain TCP socket, for `http://` servers (loopback or a LAN): one HTTP/1.1
/// `PUT` per connection, every step bounded by one deadline. No libcurl, so the resident process maps no
/// TLS, LDAP or Kerberos libraries it would never use (`https://` goes through `lfg-host-tls`).
public final class SocketHeartbeat: HeartbeatSender {
    private let address: ServerAddress
    private let host: HostID
    private let token: String?
    private let timeoutSeconds: Double

    /// - Parameters:
    ///   - address: the server (`http://` only: this sender speaks no TLS).
    ///   - host: this machine's host name as reports carry it.
    ///   - token: the bearer token, or nil.
    ///   - timeoutSeconds: the bound on one whole heartbeat (resolve, connect, send, read the status line).
    public init(address: ServerAddress, host: HostID, token: String?, timeoutSeconds: Double = 5) {
        precondition(!address.needsTLS, "SocketHeartbeat speaks plain HTTP only")
        self.address = address
        self.host = host
        self.token = token
        self.timeoutSeconds = timeoutSeconds
    }

    public func send(ttlSeconds: Double) -> HeartbeatOutcome {
        let deadline = Self.monotonicNow() + timeoutSeconds
        let request = HeartbeatMessage.request(to: address, host: host, token: token, ttlSeconds: ttlSeconds)
        let descriptor: Int32
        switch openConnection(before: deadline) {
        case .success(let connected): descriptor = connected
        case .failure(let problem): return .unreachable(problem.description)
        }
        defer { close(descriptor) }
        if let problem = Self.writeAll(request, to: descriptor, before: deadline) { return .unreachable(problem) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            switch HeartbeatMessage.answer(answer) {
            case .status(let code): return (200..<300).contains(code) ? .accepted : .refused(status: code)
            case .malformed(let start): return .unreachable("\(address.hostHeader) did not answer in HTTP: \(start)")
            case .incomplete: break
            }
            guard Self.wait(descriptor, for: Int16(POLLIN), before: deadline) else {
                return .unreachable("\(address.hostHeader) did not answer within \(Int(timeoutSeconds)) s")
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else {
                return .unreachable("\(address.hostHeader) closed the connection before answering" + (count < 0 ? ": \(Self.systemError())" : ""))
            }
            answer += buffer[..<count]
        }
    }

    /// A connected nonblocking socket to the first of the server's addresses that accepts, or why none did.
    private func openConnection(before deadline: Double) -> Result<Int32, HeartbeatProblem> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, list != nil else {
            return .failure(HeartbeatProblem("cannot resolve \(address.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var problem = HeartbeatProblem("\(address.hostHeader) has no address")
        var next = list
        while let entry = next?.pointee {
            next = entry.ai_next
            let descriptor = socket(entry.ai_family, Self.streamType, 0)
            guard descriptor >= 0 else {
                problem = HeartbeatProblem("socket: \(Self.systemError())")
                continue
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            #if canImport(Darwin)
                var yes: Int32 = 1
                setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if connect(descriptor, entry.ai_addr, entry.ai_addrlen) == 0 { return .success(descriptor) }
            if errno == EINPROGRESS, Self.wait(descriptor, for: Int16(POLLOUT), before: deadline) {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { return .success(descriptor) }
                problem = HeartbeatProblem("connect to \(address.hostHeader): \(String(cString: strerror(error)))")
            } else {
                let reason = errno == EINPROGRESS ? "timed out after \(Int(timeoutSeconds)) s" : Self.systemError()
                problem = HeartbeatProblem("connect to \(address.hostHeader): \(reason)")
            }
            close(descriptor)
        }
        return .failure(problem)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, before deadline: Double) -> String? {
        var offset = 0
        while offset < bytes.count {
            guard wait(descriptor, for: Int16(POLLOUT), before: deadline) else { return "sending the heartbeat timed out" }
            let sent = bytes.withUnsafeBytes { sendWithoutSignal(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return "sending the heartbeat: \(systemError())"
            }
            offset += sent
        }
        return nil
    }

    /// Polls `descriptor` for `events` until `deadline` (monotonic seconds); whether it became ready.
    private static func wait(_ descriptor: Int32, for events: Int16, before deadline: Double) -> Bool {
        while true {
            let left = deadline - monotonicNow()
            guard left > 0 else { return false }
            var polled = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&polled, 1, Int32((left * 1000).rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    private static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamType = SOCK_STREAM
    #endif
}

/// Why a heartbeat found no server (becomes ``HeartbeatOutcome/unreachable(_:)``).
struct HeartbeatProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `send(2)` that never raises SIGPIPE (a server that closed early is an answer, not a crash); file scope,
/// where `send` is the system call and not ``SocketHeartbeat/send(ttlSeconds:)``.
private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        send(descriptor, bytes, count, 0)  // SO_NOSIGPIPE is set on the socket
    #endif
}
