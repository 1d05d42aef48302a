import Glibc

/// A loopback port that refuses connections for as long as this value lives: bound, never listening.
/// (A stopped server's port could be handed to another test's server running in parallel.)
final class ClosedPort {
    let descriptor: Int32
    let port: UInt16

    init() {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(descriptor, raw, length)
                return getsockname(descriptor, raw, &length)
            }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    var url: String { "http://127.0.0.1:\(port)" }
}
