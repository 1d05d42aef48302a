/// Something that answers HTTP requests: routes are plain values tested in memory, and the
/// HTTP/1.1 server (module HTTPServer) is one caller among others.
public protocol HTTPHandler: Sendable {
    /// Answers `request`. Never throws: every failure is a response (4xx/5xx with the error body).
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// A handler made of a closure.
public struct HandlerFunction: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse
    public init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }
    public func respond(to request: HTTPRequest) async -> HTTPResponse { await body(request) }
}
