internal import CMicroHTTPD
internal import CMicroHTTPDShims
import HTTPTypes
import Synchronization

/// An HTTP/1.1 server (libmicrohttpd) that answers every request with an `HTTPHandler`.
///
/// Use it in two steps: `start()` binds and returns the real port (useful with port 0); `run()` serves
/// handler work as child tasks until its task is cancelled, then shuts down cleanly: requests not yet
/// handled get 503, streaming responses are finished, and the daemon stops only when no connection is
/// suspended any more.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8766), handler: routes)
/// let port = try server.start()
/// try await server.run()   // until cancelled
/// ```
///
/// Sockets are served by libmicrohttpd's epoll threads; every request whose body is complete is
/// suspended and handed to a Swift task, which resumes the connection with the answer. Bodies over
/// `maxBodyBytes` get 413 with the contract's error body and never reach the handler. Paths and query
/// arguments arrive percent-decoded, header names lower-cased.
public final class HTTPServer: Sendable {
    private enum Lifecycle {
        case created
        case listening(UncheckedSendable<OpaquePointer>, port: UInt16)
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

    deinit { stopDaemon() }

    /// Binds and starts listening; returns the bound port. Requests wait until `run()` serves them.
    /// Throws when the address is not IPv4 or the port cannot be bound.
    @discardableResult
    public func start() throws(HTTPServerError) -> UInt16 {
        let configuration = core.configuration
        guard IPv4Address.isValid(configuration.bindAddress) else {
            throw .invalidBindAddress(configuration.bindAddress)
        }
        return try lifecycle.withLock { (lifecycle) throws(HTTPServerError) -> UInt16 in
            guard case .created = lifecycle else { throw .alreadyStarted }
            let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_TURBO.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue
            let corePointer = Unmanaged.passUnretained(core).toOpaque()
            // libmicrohttpd's own cap sits above ours, so a connection over our cap is still accepted
            // and answered 503 at once instead of waiting unanswered in the listen queue.
            let hardLimit = configuration.connectionLimit + Self.refusalHeadroom
            FileLimit.raise(toAtLeast: UInt(hardLimit) + 256)
            let daemon = lfg_mhd_start(
                flags, configuration.bindAddress, configuration.port,
                accessHandler, corePointer, requestCompleted, corePointer,
                configuration.threadPoolSize, hardLimit, configuration.connectionTimeoutSeconds,
                connectionNotified, corePointer, 1_024)
            guard let daemon else {
                throw .couldNotListen(address: configuration.bindAddress, port: configuration.port)
            }
            let port = lfg_mhd_bound_port(daemon)
            lifecycle = .listening(UncheckedSendable(daemon), port: port)
            return port
        }
    }

    /// The bound port while listening, else nil.
    public var port: UInt16? {
        lifecycle.withLock { lifecycle in
            if case .listening(_, let port) = lifecycle { return port }
            return nil
        }
    }

    /// Serves requests until the calling task is cancelled, then shuts down (see the type's summary).
    /// Call once, after `start()`.
    public func run() async throws(HTTPServerError) {
        guard port != nil else { throw .notStarted }
        let core = core
        await withDiscardingTaskGroup { group in
            group.addTask { await core.closeOverdueHeaders() }
            for await submission in core.admission.submissions {
                group.addTask { await core.serve(submission) }
            }
            // Cancelled: refuse new work, answer what was never picked up, end streams and handlers.
            core.answerUnclaimed()
            group.cancelAll()
        }
        // Answers given but not yet sent would be dropped by stopping the daemon now.
        await core.inFlight.waitUntilNone()
        stopDaemon()
    }

    /// Connections libmicrohttpd accepts beyond `connectionLimit`, only to answer them 503.
    static let refusalHeadroom: UInt32 = 512

    /// How many connections are open, were refused over a cap, and were closed for slow headers.
    public var connectionCounts: (open: Int, refused: Int, expired: Int) {
        let counts = core.connections.counts
        return (counts.open, counts.refused, counts.expired)
    }

    /// Stops listening. Only call when no request is in flight (after `run()` returned, or if it never ran).
    private func stopDaemon() {
        core.answerUnclaimed()
        lifecycle.withLock { lifecycle in
            if case .listening(let daemon, _) = lifecycle { MHD_stop_daemon(daemon.value) }
            lifecycle = .stopped
        }
    }
}
