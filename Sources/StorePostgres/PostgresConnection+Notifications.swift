internal import CPostgres
import ControlPlane
import Foundation

/// LISTEN/NOTIFY on a connection of its own.
extension PostgresConnection {
    /// One NOTIFY received.
    struct Notification {
        var channel: String
        var payload: String
    }

    /// Waits up to `milliseconds` for input, then returns every notification that arrived.
    /// Throws when the connection is lost (the caller re-opens it and catches up).
    func awaitNotifications(milliseconds: Int32) throws(StoreError) -> [Notification] {
        var descriptor = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR {
            throw StoreError(operation: "poll \(description)", code: errno, message: String(cString: strerror(errno)))
        }
        if ready > 0 {
            guard consumeInput() else {
                throw StoreError(operation: "listen \(description)", message: "the connection was lost; re-opening")
            }
        }
        guard isOpen else { throw StoreError(operation: "listen \(description)", message: "the connection was lost") }
        return drainNotifications()
    }
}
