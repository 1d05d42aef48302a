#if canImport(Glibc)
internal import Glibc
#endif
import HTTPTypes
import Synchronization

/// An HTTP/1.1 server on epoll that answers every request with an `HTTPHandler`.
///
/// Use it in two steps: `start()` binds and returns the real port (useful with port 0); `run()` serves
/// until its task is cancelled, then shuts down cleanly: requests not yet handled get 503, handlers are
/// cancelled, streaming responses are finished, answers already given are sent whole, and only then
/// does `run()` return, with no thread or descriptor left behind.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8766), handler: routes)
/// let port = try server.start()
/// try await server.run()   // until cancelled
/// ```
///
/// `threadPoolSize` event loops (``EventLoop``) each read, parse and write their connections and run
/// the handlers of the requests they read as tasks on their own thread. Requests are parsed strictly
/// (``RequestParser``): malformed ones get 400, chunked bodies 411, bodies over `maxBodyBytes` 413 and
/// URLs over 8 KiB 414, all with the contract's error body and never reaching the handler. Paths and
/// query arguments arrive percent-decoded, header names lower-cased.
public final class HTTPServer: Sendable {
    private enum Lifecycle {
        case created
        case listening(socket: Int32, port: UInt16)
        case running(socket: Int32, port: UInt16)
        case stopped
    }

    /// The configuration the server was made with.
    public var configuration: HTTPServerConfiguration { core.configuration }
    private let core: ServerCore
    private let lifecycle = Mutex(Lifecycle.created)

    /// Makes a server; nothing listens until `start()`.
    public init(configuration: HTTPServerConfiguration, handler: some HTTPHandler) {
        core = ServerCore(configuration: configuration, handler: handler)
    }

    deinit {
        if case .listening(let socket, _) = lifecycle.withLock({ $0 }) { close(socket) }
    }

    /// Binds and starts listening; returns the bound port. Connections wait until `run()` serves them.
    /// Throws when the address is not IPv4 or the port cannot be bound.
    @discardableResult
    public func start() throws(HTTPServerError) -> UInt16 {
        let configuration = core.configuration
        guard IPv4Address.isValid(configuration.bindAddress) else {
            throw .invalidBindAddress(configuration.bindAddress)
        }
        return try lifecycle.withLock { (lifecycle) throws(HTTPServerError) -> UInt16 in
            guard case .created = lifecycle else { throw .alreadyStarted }
            // Connections over the cap are still accepted, to be answered 503 at once.
            FileLimit.raise(toAtLeast: UInt(configuration.connectionLimit) + Self.refusalHeadroom + 256)
            guard let (socket, port) = SocketCalls.listen(
                address: configuration.bindAddress, port: configuration.port, backlog: 1_024)
            else { throw .couldNotListen(address: configuration.bindAddress, port: configuration.port) }
            lifecycle = .listening(socket: socket, port: port)
            return port
        }
    }

    /// The bound port while listening, else nil.
    public var port: UInt16? {
        lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .listening(_, let port), .running(_, let port): port
            case .created, .stopped: nil
            }
        }
    }

    /// Serves requests until the calling task is cancelled, then shuts down (see the type's summary).
    /// Call once, after `start()`.
    public func run() async throws(HTTPServerError) {
        let core = core
        let (socket, loops) = try lifecycle.withLock { (lifecycle) throws(HTTPServerError) -> (Int32, [EventLoop]) in
            guard case .listening(let socket, let port) = lifecycle else { throw .notStarted }
            let loops = (0..<max(1, core.configuration.threadPoolSize)).compactMap { _ in
                EventLoop(core: core, listener: socket)
            }
            for (index, loop) in loops.enumerated() {
                loop.siblings = loops
                loop.nextSibling = index
            }
            guard loops.count == max(1, core.configuration.threadPoolSize), loops.allSatisfy({ $0.start() }) else {
                // Not started: nothing runs yet, so the loops (and the listener) can simply go.
                close(socket)
                lifecycle = .stopped
                throw .couldNotListen(address: core.configuration.bindAddress, port: port)
            }
            lifecycle = .running(socket: socket, port: port)
            return (socket, loops)
        }
        await withTaskCancellationHandler {
            for loop in loops { await loop.finished.wait() }
        } onCancel: {
            for loop in loops { loop.onLoop { loop.beginShutdown() } }
        }
        for loop in loops { loop.join() }
        close(socket)
        lifecycle.withLock { $0 = .stopped }
    }

    /// Connections accepted beyond `connectionLimit`, only to answer them 503 (the descriptors to allow).
    static let refusalHeadroom: UInt = 512

    /// How many connections are open, were refused over a cap, and were closed for slow headers.
    public var connectionCounts: (open: Int, refused: Int, expired: Int) {
        let counts = core.ledger.withLock { $0.counts }
        return (counts.open, counts.refused, counts.expired)
    }
}
