/// Why the HTTP server could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bind address is not an IPv4 dotted quad.
    case invalidBindAddress(String)
    /// The system refused to listen (port in use, no permission, too many files).
    case couldNotListen(address: String, port: UInt16)
    /// `start()` was called on a server that already started.
    case alreadyStarted
    /// `run()` was called before `start()`.
    case notStarted

    public var description: String {
        switch self {
        case .invalidBindAddress(let address):
            "bind address '\(address)' is not an IPv4 address; use e.g. 127.0.0.1 or 0.0.0.0"
        case .couldNotListen(let address, let port):
            "could not listen on \(address):\(port); the port may be in use (choose another with --port) or need privileges"
        case .alreadyStarted:
            "the HTTP server is already started; start it once"
        case .notStarted:
            "the HTTP server is not started; call start() before run()"
        }
    }
}
