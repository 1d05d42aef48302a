import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to a loopback port and reads the reply until the server closes or 4 KiB arrive.
enum RawSocket {
    /// Reports which socket call failed.
    struct Failure: Error { let step: String }

    static func exchange(port: UInt16, bytes: String) throws -> String {
        let socket = try connected(port: port)
        defer { close(socket) }
        _ = bytes.withCString { send(socket, $0, strlen($0), 0) }
        var reply = [UInt8](repeating: 0, count: 4_096)
        let count = recv(socket, &reply, reply.count, 0)
        guard count > 0 else { return "" }
        return String(decoding: reply[0..<count], as: UTF8.self)
    }

    /// Sends `bytes` and closes at once, without reading anything (an abandoned request).
    static func sendAndClose(port: UInt16, bytes: String) throws {
        let socket = try connected(port: port)
        _ = bytes.withCString { send(socket, $0, strlen($0), 0) }
        close(socket)
    }

    /// Sends `bytes` and returns the open socket without reading (a reader that never reads);
    /// its receive buffer is as small as the system allows. The caller closes it.
    static func sendWithoutReading(port: UInt16, bytes: String) throws -> Int32 {
        let socket = try connected(port: port, receiveBuffer: 4_096)
        _ = bytes.withCString { send(socket, $0, strlen($0), 0) }
        return socket
    }

    /// A socket connected to the loopback `port`; `receiveBuffer` sets `SO_RCVBUF` before connecting.
    static func connected(port: UInt16, receiveBuffer: Int32? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(step: "socket") }
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(step: "connect")
        }
        return socket
    }

    /// Bounds every blocking send and receive on `socket` to `seconds` (a hang becomes a failure).
    static func limitWaits(_ socket: Int32, seconds: Int = 10) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(socket, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends all of `bytes`, blocking (never raising `SIGPIPE`): nil once sent, else the `errno` that stopped it.
    static func sendAll(_ socket: Int32, _ bytes: [UInt8]) -> Int32? {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return errno }
            sent += count
        }
        return nil
    }

    /// Reads until the server closes (or the read fails, or waits past ``limitWaits(_:seconds:)``): the bytes read.
    static func receiveAll(_ socket: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return received }
            received += buffer[0..<count]
        }
    }

    /// A loopback port that refuses connections for as long as the returned socket stays open: it is
    /// bound but never listens, so no other test's server can take it meanwhile.
    static func refusingPort() throws -> (socket: Int32, port: UInt16) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw Failure(step: "bind")
        }
        return (socket, UInt16(bigEndian: address.sin_port))
    }
}
