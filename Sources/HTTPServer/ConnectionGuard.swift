import Foundation
import Synchronization

/// Keeps connections from locking everyone out: a deadline for a request's headers (slowloris), a cap
/// on one client's connections and on all of them, and a fast 503 for a connection over a cap.
///
/// libmicrohttpd tells it when a connection opens and closes, and the server when a request's headers
/// are complete or a request is done (a kept-alive connection waits for its next headers under the same
/// deadline). The counting is ``ConnectionLedger`` (pure); this class adds the socket calls.
final class ConnectionGuard: Sendable {
    private let ledger: Mutex<ConnectionLedger>
    private let clock = ContinuousClock()

    init(limits: ConnectionLedger.Limits) {
        ledger = Mutex(ConnectionLedger(limits: limits))
    }

    /// A new connection; when it is over a cap it is answered 503 on the spot and shut, and false returned.
    func opened(_ connection: OpaquePointer, socket: Int32, peer: String) -> Bool {
        let now = clock.now
        return ledger.withLock { ledger in
            switch ledger.open(key(connection), socket: socket, peer: peer, now: now) {
            case .admitted:
                return true
            case .refused(let reason):
                Self.refuse(socket: socket, reason: reason)
                return false
            }
        }
    }

    /// The request's headers are complete: the deadline no longer applies.
    func headersArrived(_ connection: OpaquePointer) {
        ledger.withLock { $0.headersArrived(key(connection)) }
    }

    /// A request is done; a kept-alive connection gets a new deadline for its next request's headers.
    func requestFinished(_ connection: OpaquePointer) {
        let now = clock.now
        ledger.withLock { $0.awaitHeaders(key(connection), now: now) }
    }

    /// libmicrohttpd closed the connection (its socket is closed right after this returns).
    func closed(_ connection: OpaquePointer) {
        ledger.withLock { $0.close(key(connection)) }
    }

    /// Shuts every connection whose headers are overdue; libmicrohttpd then sees the socket end and
    /// closes it. Runs under the lock, so a socket is never shut after libmicrohttpd closed it.
    @discardableResult
    func shutOverdue() -> Int {
        let now = clock.now
        return ledger.withLock { ledger in
            let overdue = ledger.overdue(now: now)
            for socket in overdue { shutdown(socket, Int32(SHUT_RDWR)) }
            return overdue.count
        }
    }

    var counts: ConnectionLedger.Counts { ledger.withLock { $0.counts } }

    private func key(_ connection: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(connection)) }

    /// Writes a whole 503 with the contract's error body straight to the fresh socket, then shuts it.
    private static func refuse(socket: Int32, reason: String) {
        let body = #"{"error":"\#(reason)"}"#
        let response = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        _ = response.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        shutdown(socket, Int32(SHUT_RDWR))
    }
}
