import HTTPTypes

/// Why a request is not served, as the status and message of the contract's error body; the one place
/// these texts live (the parser picks them, the connection answers them and closes).
struct RequestRefusal: Error, Equatable, Sendable {
    let status: Int
    let message: String

    static let malformedRequestLine = RequestRefusal(
        status: 400, message: "the request line is malformed; send 'METHOD /path HTTP/1.1' ending in CRLF")
    static let malformedHeader = RequestRefusal(
        status: 400, message: "a header field is malformed; send 'Name: value' lines ending in CRLF")
    static let malformedContentLength = RequestRefusal(
        status: 400, message: "Content-Length is not one whole number; send the body's length in bytes")
    static let chunkedBody = RequestRefusal(
        status: 411, message: "chunked request bodies are not accepted; send the body with Content-Length")
    static let unsupportedVersion = RequestRefusal(
        status: 505, message: "only HTTP/1.0 and HTTP/1.1 are served; send HTTP/1.1")

    static func bodyTooLarge(_ limits: RequestParser.Limits) -> RequestRefusal {
        RequestRefusal(status: 413, message: "request body is over \(limits.maxBodyBytes) bytes; send a smaller body")
    }

    static func uriTooLong(_ limits: RequestParser.Limits) -> RequestRefusal {
        RequestRefusal(status: 414, message: "the URL is over \(limits.maxTargetBytes) bytes; send a shorter one")
    }

    static func headTooLarge(_ limits: RequestParser.Limits) -> RequestRefusal {
        RequestRefusal(
            status: 431, message: "the request's headers are over \(limits.maxHeadBytes) bytes; send fewer or shorter ones")
    }

    /// The server is stopping: requests that were not handled yet get this.
    static let shuttingDown = RequestRefusal(status: 503, message: "the server is shutting down; retry in a moment")

    /// The answer, in the contract's error shape.
    var response: HTTPResponse { .error(status, message) }
}
