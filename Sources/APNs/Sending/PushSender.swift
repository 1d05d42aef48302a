/// Sends pushes to APNs. The only I/O boundary the watcher talks to.
///
/// Rules every implementation keeps:
/// - `send` never throws: a transport failure comes back as a response whose outcome is
///   ``PushOutcome/retryLater``, so no caller can forget to handle it.
/// - A push reported as accepted was accepted exactly once by the server; a push that is retried
///   internally after a connection loss was never answered before.
/// - It adds the `authorization` header itself, and never logs a whole token or JWT.
public protocol PushSender: Sendable {
    /// Sends one push and returns what came back.
    func send(_ request: PushRequest) async -> PushResponse
}
