/// A nonblocking byte pipe: a TCP socket, or TLS over one.
///
/// Confined to one thread (the loop that polls its descriptor); not Sendable.
public protocol ByteStream: AnyObject {
    /// The descriptor to poll.
    var descriptor: Int32 { get }
    /// Reads what is available into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamResult
    /// Writes as much of `bytes` as the socket takes now.
    func write(_ bytes: UnsafeRawBufferPointer) -> StreamResult
    /// Closes the descriptor (idempotent).
    func close()
}

/// The result of one read or write on a ``ByteStream``.
public enum StreamResult: Equatable, Sendable {
    /// This many bytes moved (never 0).
    case bytes(Int)
    /// Nothing moved; poll for readability (`wantsWrite == false`) or writability.
    case wouldBlock(wantsWrite: Bool)
    /// The peer closed the stream.
    case closed
    /// The stream failed; the message names the call and the system's reason.
    case failed(String)
}

/// Wire-level failure: what failed and why, without secrets.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
