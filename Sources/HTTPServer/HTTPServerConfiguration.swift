/// Where and how the HTTP server listens.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// The IPv4 address to bind, as a dotted quad (`127.0.0.1` keeps the server on loopback).
    public var bindAddress: String
    /// The TCP port; 0 asks the system for any free port (read the real one from `HTTPServer.start()`).
    public var port: UInt16
    /// Request bodies larger than this many bytes are answered 413 before the handler runs.
    public var maxBodyBytes: Int
    /// An idle connection is closed after this many seconds (0 = never). Streaming responses
    /// waiting for their next event are not idle.
    public var connectionTimeoutSeconds: UInt32
    /// Event-loop threads serving sockets; each also runs the handlers of the requests it reads.
    public var threadPoolSize: UInt32
    /// At most this many connections at once; one more is answered 503 (the contract's error body) at once.
    public var connectionLimit: UInt32
    /// At most this many connections from one peer address at once; one more is answered 503.
    public var perClientConnectionLimit: UInt32
    /// A request's headers must be complete this long after its connection opened (or its previous
    /// request finished); past it the connection is closed (a client sending a byte now and then holds nothing).
    public var headerDeadline: Duration
    /// A streaming response whose reader falls this many bytes behind is ended (the slow reader is
    /// dropped) instead of buffering without limit.
    public var maxStreamBufferBytes: Int
    /// While the server stops, how long an answer still being written (given before or during the stop)
    /// has to reach its reader; then its connection is closed. A reader that stopped reading so never
    /// holds the stop (SIGTERM) for the idle timeout; one that reads gets the answer whole, if it takes no
    /// longer than this.
    public var shutdownDrain: Duration

    /// The contract's limit on request bodies: 64 KiB.
    public static let contractMaxBodyBytes = 64 * 1024
    /// The default `shutdownDrain`: two seconds, short beside the usual 10 to 30 s a supervisor waits
    /// after SIGTERM, long beside any answer a reading client takes on a working network.
    public static let defaultShutdownDrain = Duration.seconds(2)

    public init(
        bindAddress: String = "127.0.0.1", port: UInt16 = 0, maxBodyBytes: Int = contractMaxBodyBytes,
        connectionTimeoutSeconds: UInt32 = 60, threadPoolSize: UInt32 = 2, connectionLimit: UInt32 = 4_096,
        perClientConnectionLimit: UInt32 = 512, headerDeadline: Duration = .seconds(10),
        maxStreamBufferBytes: Int = 1024 * 1024, shutdownDrain: Duration = defaultShutdownDrain
    ) {
        self.shutdownDrain = shutdownDrain
        self.perClientConnectionLimit = perClientConnectionLimit
        self.headerDeadline = headerDeadline
        self.maxStreamBufferBytes = maxStreamBufferBytes
        self.bindAddress = bindAddress
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.threadPoolSize = threadPoolSize
        self.connectionLimit = connectionLimit
    }
}
