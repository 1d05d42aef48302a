/// What an open `GET /api/events` reports, in order: ``opened`` once, ``bytes`` any number of times,
/// then exactly one ``ended``.
public enum EventStreamSignal: Hashable, Sendable {
    /// The server answered 200 with `text/event-stream`.
    case opened
    /// Bytes of the stream, cut anywhere.
    case bytes([UInt8])
    /// The stream closed or never opened (nil: the server ended it cleanly). A non-200 answer is
    /// `.rejected(status:message:)`, so a 401 is told apart from a network failure.
    case ended(ControlPlaneError?)
}

/// Opens a server's event stream. Implementations: ``URLSessionEventStream`` on the phone; tests use one
/// over the package's libcurl client against a real server.
public protocol EventStreamTransport: Sendable {
    /// Opens `GET /api/events` on `server`. The stream finishes after ``EventStreamSignal/ended(_:)``;
    /// when the consumer stops iterating (its task is cancelled), the connection must close.
    func events(on server: ServerProfile) -> AsyncStream<EventStreamSignal>
}

/// The path of the server's event stream (contract section 5).
public let eventStreamPath = "/api/events"
