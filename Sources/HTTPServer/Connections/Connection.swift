/// One client connection's state. Owned by one ``EventLoop`` and touched only on that loop's thread
/// (handler and stream tasks reach it through the loop, by socket and ``id``), so it has no lock.
final class Connection {
    /// What the connection is doing.
    enum Phase: Equatable {
        /// Reading a request (or waiting for the next one on a kept-alive connection).
        case reading
        /// A handler task is answering the request just read; nothing more is read meanwhile.
        case handling
        /// A streaming answer is being written as its producer yields chunks.
        case streaming(ResponseEncoding.Framing, closesAfter: Bool)
        /// A whole answer (or a stream's end) is being written; then the connection reads the next
        /// request, or closes when `closesAfter`.
        case writing(closesAfter: Bool)
        /// The answer is sent and the write side shut; what the client still sends is read and dropped
        /// until it closes or `until`, so closing never resets an answer it has not read yet.
        case lingering(until: ContinuousClock.Instant)
    }

    let socket: Int32
    /// Tells this connection from a later one on the same socket number.
    let id: UInt64
    let peer: String
    /// Counted by the ``ConnectionLedger`` (until closed); false for a connection over a cap, which is
    /// only answered 503 and closed.
    let isAdmitted: Bool
    var phase = Phase.reading
    var parser: RequestParser

    /// Bytes received and not yet consumed by a request.
    var input: [UInt8] = []
    /// Bytes to send, from `sent` on.
    var output: [UInt8] = []
    var sent = 0

    /// epoll reported input that was not read to its end yet (epoll is edge-triggered).
    var mayRead = true
    /// The client shut its sending side (or reset); no further request can come.
    var isInputClosed = false
    /// The current request's head, while it is handled or answered.
    var request: (minorVersion: Int, isKeepAlive: Bool, isHead: Bool) = (1, true, false)
    /// `100 Continue` was sent for the current request.
    var hasSentContinue = false
    /// The handler task, or the stream's pump task, while one runs.
    var task: Task<Void, Never>?
    /// The connection was closed (its socket number may already belong to another connection).
    var isClosed = false

    /// When the current request's head must be complete (nil once it is).
    var headersDue: ContinuousClock.Instant?
    /// The last time bytes moved either way (the idle timeout counts from it).
    var lastActivity: ContinuousClock.Instant
    /// While the server stops: when an answer still being written is given up (its reader stopped
    /// reading); set when shutdown first finds the connection writing (``EventLoop/checkTimers()``).
    var drainDue: ContinuousClock.Instant?

    init(socket: Int32, id: UInt64, peer: String, isAdmitted: Bool = true, limits: RequestParser.Limits,
         now: ContinuousClock.Instant, headerDeadline: Duration) {
        self.socket = socket
        self.id = id
        self.peer = peer
        self.isAdmitted = isAdmitted
        parser = RequestParser(limits: limits)
        lastActivity = now
        headersDue = now + headerDeadline
    }

    var hasPendingOutput: Bool { sent < output.count }
    var pendingOutputBytes: Int { output.count - sent }
}
