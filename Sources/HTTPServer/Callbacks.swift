internal import CMicroHTTPD
internal import CMicroHTTPDShims

/// libmicrohttpd's access handler: forwards to the `ServerCore` behind `context`.
func accessHandler(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ upload: UnsafePointer<CChar>?,
    _ uploadSize: UnsafeMutablePointer<Int>?, _ contextSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let url, let method, let uploadSize, let contextSlot else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    let slice = UnsafeRawBufferPointer(start: upload, count: upload == nil ? 0 : uploadSize.pointee)
    return core.handleAccess(
        connection: connection, url: String(cString: url), method: String(cString: method), upload: slice,
        uploadSize: uploadSize, contextSlot: contextSlot)
}

/// libmicrohttpd's request-completed callback: wakes the request's task and releases its context.
func requestCompleted(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ contextSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode
) {
    let core = context.map { Unmanaged<ServerCore>.fromOpaque($0).takeUnretainedValue() }
    if let core, let connection { core.connections.requestFinished(connection) }
    guard let contextSlot, let raw = contextSlot.pointee else { return }
    let request = Unmanaged<RequestContext>.fromOpaque(raw)
    if request.takeUnretainedValue().markCompleted() { core?.inFlight.ended() }
    request.release()
    contextSlot.pointee = nil
}

/// libmicrohttpd's connection callback: a connection opened (admitted, or answered 503 over a cap) or closed.
func connectionNotified(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let context, let connection else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        _ = core.connections.opened(
            connection, socket: lfg_mhd_connection_socket(connection),
            peer: ConnectionValues.peerAddress(of: connection) ?? "unknown")
    case .CONNECTION_NOTIFY_CLOSED:
        core.connections.closed(connection)
    }
}
