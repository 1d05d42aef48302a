internal import CEpoll
internal import Glibc
import Foundation
import HTTPTypes

/// Accepting, reading and parsing requests, handing them to handler tasks, and closing connections.
extension EventLoop {
    /// Accepts what is waiting on the listening socket (a bounded batch; epoll reports the rest).
    func acceptConnections() {
        for _ in 0..<64 {
            switch SocketCalls.accept(listener) {
            case .none:
                return
            case .exhausted:
                // Out of descriptors: stop watching the listener until the next timer check, or epoll
                // (level-triggered for it) would report the same waiting connection in a busy loop.
                unwatchListener()
                isAcceptPaused = true
                return
            case .connection(let socket, let peer):
                if case .refused(let reason) = core.ledger.withLock({ $0.open(peer: peer) }) {
                    refuse(socket, peer: peer, reason: reason)
                    continue
                }
                // Whichever loop epoll woke accepts; connections are dealt round the loops, so load
                // is shared even when one wake-up accepts a whole burst.
                let target = siblings.isEmpty ? self : siblings[nextSibling % siblings.count]
                nextSibling += 1
                if target === self || !target.onLoop({ target.adopt(socket, peer: peer) }) {
                    adopt(socket, peer: peer)
                }
            }
        }
    }

    /// Serves an accepted (and admitted) connection on this loop.
    private func adopt(_ socket: Int32, peer: String) {
        if isShuttingDown {
            core.ledger.withLock { $0.close(peer: peer) }
            close(socket)
            return
        }
        register(socket, peer: peer, isAdmitted: true)
    }

    /// Makes `socket`'s connection on this loop and watches it (closed at once when epoll refuses it).
    @discardableResult
    private func register(_ socket: Int32, peer: String, isAdmitted: Bool) -> Connection {
        nextConnectionID += 1
        let connection = Connection(
            socket: socket, id: nextConnectionID, peer: peer, isAdmitted: isAdmitted, limits: core.parserLimits,
            now: .now, headerDeadline: core.configuration.headerDeadline)
        connections[socket] = connection
        // Edge-triggered and registered once: no epoll_ctl per request. A socket already readable is
        // reported at once.
        let events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        if !watch(socket, events: events) { closeConnection(connection) }
        return connection
    }

    /// Answers a connection over a cap 503 with the contract's error body (the loop's cached `Date`), and
    /// closes it as every last answer closes (``linger(_:)``): write side shut, what the client still sends
    /// read and dropped for a bounded moment. Closing at once, with its request unread, would reset the
    /// connection, and a client still sending its request would get the reset instead of the 503.
    /// Past ``ConnectionLedger/Limits/lingeringRefusals`` it is answered and closed at once instead.
    private func refuse(_ socket: Int32, peer: String, reason: String) {
        var response = HTTPResponse.error(503, reason)
        response.headers.append(("Retry-After", "1"))
        guard core.ledger.withLock({ $0.mayLingerRefusal() }) else {
            var output: [UInt8] = []
            ResponseEncoding.appendHead(
                of: response, framing: .length(response.bodyData?.count ?? 0), isClosing: true, minorVersion: 1,
                date: date.text, to: &output)
            output.append(contentsOf: response.bodyData ?? Data())
            _ = output.withUnsafeBytes { SocketCalls.send(socket, $0) }
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
            return
        }
        let connection = register(socket, peer: peer, isAdmitted: false)
        guard !connection.isClosed else { return }
        connection.headersDue = nil
        connection.request = (1, false, false)
        answer(connection, with: response)
    }

    /// epoll reported `events` on a connection's socket.
    func connectionEvent(_ socket: Int32, events: UInt32) {
        guard let connection = connections[socket] else { return }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { return closeConnection(connection) }
        if events & EPOLLIN.rawValue != 0 { connection.mayRead = true }
        if events & EPOLLRDHUP.rawValue != 0 {
            connection.isInputClosed = true
            // A stream's client has nothing more to send: it went away, so its producer is released now.
            if case .streaming = connection.phase { return closeConnection(connection) }
        }
        if events & EPOLLOUT.rawValue != 0, connection.hasPendingOutput { flush(connection) }
        if connections[socket] === connection { advance(connection) }
    }

    /// Reads and serves requests while the connection is reading and there is input.
    func advance(_ connection: Connection) {
        while !connection.isClosed {
            switch connection.phase {
            case .reading:
                if serveBufferedRequest(connection) { return }
            case .lingering:
                break
            case .handling, .streaming, .writing:
                return
            }
            guard connection.mayRead else {
                // Drained, and the client closed its side: no (further) request can complete.
                if connection.isInputClosed { closeConnection(connection) }
                return
            }
            switch SocketCalls.receive(connection.socket, into: readBuffer) {
            case .moved(let count):
                connection.lastActivity = .now
                if count < readBuffer.count { connection.mayRead = false }
                if case .lingering = connection.phase { continue }
                connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
            case .wouldBlock:
                connection.mayRead = false
            case .ended:
                connection.mayRead = false
                connection.isInputClosed = true
            case .failed:
                return closeConnection(connection)
            }
        }
    }

    /// Parses the buffered input: serves (or refuses) a whole request and returns true, or returns false
    /// when more input is needed (after sending `100 Continue` when the client waits for it).
    private func serveBufferedRequest(_ connection: Connection) -> Bool {
        let outcome = connection.input.withUnsafeBytes { connection.parser.parse($0) }
        switch outcome {
        case .incomplete:
            return false
        case .awaitingBody(let head):
            connection.headersDue = nil
            if head.expectsContinue, !connection.hasSentContinue {
                connection.hasSentContinue = true
                connection.output.append(contentsOf: ResponseEncoding.continueHead)
                flush(connection)
            }
            return false
        case .refused(let refusal):
            connection.headersDue = nil
            connection.request = (1, false, false)
            answer(connection, with: refusal.response)
            return true
        case .complete(let head, let bodyRange, let consumed):
            connection.headersDue = nil
            connection.hasSentContinue = false
            let body = connection.input.withUnsafeBytes { Data($0[bodyRange]) }
            if consumed == connection.input.count {
                connection.input.removeAll(keepingCapacity: true)
            } else {
                connection.input.removeSubrange(0..<consumed)
            }
            connection.request = (head.minorVersion, head.isKeepAlive, head.method == "HEAD")
            if isShuttingDown || core.isStopping.load(ordering: .acquiring) {
                connection.request.isKeepAlive = false
                answer(connection, with: RequestRefusal.shuttingDown.response)
            } else {
                dispatch(head.request(body: body, remoteAddress: connection.peer), on: connection)
            }
            return true
        }
    }

    /// Hands `request` to a handler task that prefers this loop: it runs here, after the current events.
    private func dispatch(_ request: HTTPRequest, on connection: Connection) {
        connection.phase = .handling
        liveTasks += 1
        let socket = connection.socket
        let id = connection.id
        let handler = core.handler
        connection.task = Task(executorPreference: self) {
            let response = await handler.respond(to: request)
            self.onLoop {
                self.liveTasks -= 1
                self.orphanedHandlers[id] = nil
                self.deliver(response, socket: socket, id: id)
            }
        }
    }

    /// A handler's answer for the connection `id` on `socket` (dropped when that connection is gone).
    private func deliver(_ response: HTTPResponse, socket: Int32, id: UInt64) {
        guard let connection = connections[socket], connection.id == id, connection.phase == .handling else {
            if case .stream(let source) = response.body { Self.release(source) }
            return
        }
        connection.task = nil
        answer(connection, with: response)
    }

    /// Writes `response` on `connection`: a whole body at once, a stream as its chunks come.
    func answer(_ connection: Connection, with response: HTTPResponse) {
        let request = connection.request
        let isClosing = !request.isKeepAlive || connection.isInputClosed || isShuttingDown
        let framing = ResponseEncoding.framing(of: response, minorVersion: request.minorVersion)
        ResponseEncoding.appendHead(
            of: response, framing: framing, isClosing: isClosing || framing == .untilClose,
            minorVersion: request.minorVersion, date: date.text, to: &connection.output)
        switch response.body {
        case .bytes(let data):
            if !request.isHead, framing != .none { connection.output.append(contentsOf: data) }
            connection.phase = .writing(closesAfter: isClosing)
            flush(connection)
        case .stream(let source):
            guard !request.isHead, framing != .none, !connection.isInputClosed else {
                Self.release(source)
                connection.phase = .writing(closesAfter: true)
                return flush(connection)
            }
            connection.phase = .streaming(framing, closesAfter: isClosing || framing == .untilClose)
            flush(connection)
            if !connection.isClosed { pump(source, into: connection) }
        }
    }

    /// Sends pending output until it is all sent (then moves on) or the socket is full (epoll says when
    /// to go on).
    func flush(_ connection: Connection) {
        while connection.hasPendingOutput, !connection.isClosed {
            let result = connection.output.withUnsafeBytes { bytes in
                SocketCalls.send(connection.socket, UnsafeRawBufferPointer(rebasing: bytes[connection.sent...]))
            }
            switch result {
            case .moved(let count):
                connection.sent += count
                connection.lastActivity = .now
            case .wouldBlock:
                return
            case .ended, .failed:
                return closeConnection(connection)
            }
        }
        if connection.isClosed { return }
        if connection.output.capacity > 1 << 20 { connection.output = [] } else { connection.output.removeAll(keepingCapacity: true) }
        connection.sent = 0
        guard case .writing(let closesAfter) = connection.phase else { return }
        if closesAfter || isShuttingDown { return linger(connection) }
        connection.phase = .reading
        connection.headersDue = .now + core.configuration.headerDeadline
        advance(connection)
    }

    /// Ends a connection whose last answer is sent: at once when the client closed its side, else after
    /// shutting the write side and reading what the client still sends, so it reads the answer whole.
    private func linger(_ connection: Connection) {
        if connection.isInputClosed { return closeConnection(connection) }
        shutdown(connection.socket, Int32(SHUT_WR))
        connection.phase = .lingering(until: .now + (isShuttingDown ? Self.lingerWhileStopping : Self.lingerAfterLastAnswer))
        connection.input = []
        advance(connection)
    }

    /// Closes the connection. A stream's producer is released (its pump task cancelled); a handler
    /// at work goes on (a write it makes still completes), and is cancelled only if the server stops.
    func closeConnection(_ connection: Connection) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        connections[connection.socket] = nil
        core.ledger.withLock { ledger in
            if connection.isAdmitted { ledger.close(peer: connection.peer) } else { ledger.refusalClosed() }
        }
        close(connection.socket)
        switch connection.phase {
        case .streaming: connection.task?.cancel()
        case .handling: orphanedHandlers[connection.id] = connection.task
        default: break
        }
        connection.task = nil
    }
}
