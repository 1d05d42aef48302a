import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to a loopback port and reads the reply until the server closes or 4 KiB arrive.
enum RawSocket {
    /// Reports which socket call failed.
    struct Failure: Error { let step: String }

    static func exchange(port: UInt16, bytes: String) throws -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(step: "socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(step: "connect") }
        _ = bytes.withCString { send(socket, $0, strlen($0), 0) }
        var reply = [UInt8](repeating: 0, count: 4_096)
        let count = recv(socket, &reply, reply.count, 0)
        guard count > 0 else { return "" }
        return String(decoding: reply[0..<count], as: UTF8.self)
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
