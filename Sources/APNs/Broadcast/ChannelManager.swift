/// Makes, reads, lists and deletes broadcast channels: the I/O boundary the server holds for the
/// channel management API (reference section 5.3).
///
/// Rules every implementation keeps (as ``PushSender`` does):
/// - `send` never throws: a transport failure comes back as a response with status 0 and a
///   ``TransportFailure``, so no caller can forget to handle it.
/// - It adds the `authorization` header itself (the same provider JWT as pushes) and never logs a
///   whole channel id or JWT.
public protocol ChannelManager: Sendable {
    /// Sends one channel management call and returns what came back.
    func send(_ request: ChannelManagementRequest) async -> ChannelManagementResponse
}
