#if canImport(Glibc)
internal import Glibc
#endif
import HTTPTypes
import Synchronization

/// An HTTP/1.1 server on epoll that answers every request with an `HTTPHandler`.
///
/// Use it in two steps: `start()` binds, starts serving and returns the real port (useful with port 0);
/// `run()` returns when its task is cancelled, after shutting down cleanly: requests not yet handled get
/// 503, handlers are cancelled, streaming responses are finished, answers already given are sent to
/// readers that read them (each within `shutdownDrain`; a reader that stopped reading is closed then),
/// and no thread or descriptor is left behind.
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
        /// Serving since `start()`; `run()` has not been called yet.
        case serving(socket: Int32, port: UInt16, loops: [EventLoop])
        /// `run()` owns the loops and stops them when cancelled.
        case running(port: UInt16)
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

    /// A server started but never run: its loops are stopped here (closing their connections) and joined.
    deinit {
        guard case .serving(let socket, _, let loops) = lifecycle.withLock({ $0 }) else { return }
        Self.stop(loops, listener: socket)
    }

    /// Binds, starts the event loops and returns the bound port: requests are served from now on, on the
    /// loops' own threads (no task of the caller's is needed), and `run()` bounds how long.
    /// Throws when the address is not IPv4 or the port cannot be bound.
    @discardableResult
    public func start() throws(HTTPServerError) -> UInt16 {
        let core = core
        let configuration = core.configuration
        guard IPv4Address.isValid(configuration.bindAddress) else {
            throw .invalidBindAddress(configuration.bindAddress)
        }
        return try lifecycle.withLock { (lifecycle) throws(HTTPServerError) -> UInt16 in
            guard case .created = lifecycle else { throw .alreadyStarted }
            // Connections over the cap are still accepted, to be answered 503 at once.
            FileLimit.raise(toAtLeast: UInt(configuration.connectionLimit) + Self.refusalHeadroom + 256)
            let failure = HTTPServerError.couldNotListen(address: configuration.bindAddress, port: configuration.port)
            guard let (socket, port) = SocketCalls.listen(
                address: configuration.bindAddress, port: configuration.port, backlog: 1_024)
            else { throw failure }
            let count = Int(max(1, configuration.threadPoolSize))
            let loops = (0..<count).compactMap { _ in EventLoop(core: core, listener: socket) }
            for (index, loop) in loops.enumerated() {
                loop.siblings = loops
                loop.nextSibling = index
            }
            guard loops.count == count else {
                for loop in loops { loop.siblings = [] }
                close(socket)
                throw failure
            }
            let started = loops.prefix { $0.start() }
            guard started.count == count else {
                for loop in loops.dropFirst(started.count) { loop.siblings = [] }
                Self.stop(Array(started), listener: socket)
                throw failure
            }
            lifecycle = .serving(socket: socket, port: port, loops: loops)
            return port
        }
    }

    /// The bound port while listening, else nil.
    public var port: UInt16? {
        lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .serving(_, let port, _), .running(let port): port
            case .created, .stopped: nil
            }
        }
    }

    /// The event loops and the listening socket while served and not yet run (what tests check is released).
    var resources: (loops: [EventLoop], listener: Int32)? {
        lifecycle.withLock { lifecycle in
            if case .serving(let socket, _, let loops) = lifecycle { return (loops, socket) }
            return nil
        }
    }

    /// Serves requests until the calling task is cancelled, then shuts down (see the type's summary).
    /// Call once, after `start()`.
    public func run() async throws(HTTPServerError) {
        let (socket, loops) = try lifecycle.withLock { (lifecycle) throws(HTTPServerError) -> (Int32, [EventLoop]) in
            guard case .serving(let socket, let port, let loops) = lifecycle else { throw .notStarted }
            lifecycle = .running(port: port)
            return (socket, loops)
        }
        await withTaskCancellationHandler {
            for loop in loops { await loop.finished.wait() }
        } onCancel: { [core] in
            Self.beginShutdown(loops, core: core)
        }
        for loop in loops { loop.join() }
        close(socket)
        lifecycle.withLock { $0 = .stopped }
    }

    /// Shuts `loops` down, waits for their threads and closes the listener (blocking; for deinit and a failed start).
    private static func stop(_ loops: [EventLoop], listener: Int32) {
        if let core = loops.first?.core { beginShutdown(loops, core: core) }
        for loop in loops { loop.join() }
        close(listener)
    }

    /// Tells every loop to shut down; from now on no loop serves a request normally (``ServerCore/isStopping``).
    private static func beginShutdown(_ loops: [EventLoop], core: ServerCore) {
        core.isStopping.store(true, ordering: .releasing)
        for loop in loops { loop.onLoop { loop.beginShutdown() } }
    }

    /// Connections accepted beyond `connectionLimit`, only to answer them 503 (the descriptors to allow).
    static let refusalHeadroom: UInt = 512

    /// How many connections are open, were refused over a cap, and were closed for slow headers.
    public var connectionCounts: (open: Int, refused: Int, expired: Int) {
        let counts = core.ledger.withLock { $0.counts }
        return (counts.open, counts.refused, counts.expired)
    }
}
