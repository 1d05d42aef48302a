import Foundation

/// One request for `HTTPClient`: method, absolute `http://` or `https://` URL, headers and body.
public struct HTTPClientRequest: Sendable {
    /// Upper-case method, e.g. `GET`, `PUT`.
    public var method: String
    /// The absolute URL, e.g. `http://127.0.0.1:8766/api/sessions`.
    public var url: String
    /// Header fields in order.
    public var headers: [(name: String, value: String)]
    /// The body; empty sends none.
    public var body: Data
    /// The whole exchange (connect, send, receive) must finish within this; for a stream, only the
    /// connection must be made within it.
    public var timeout: Duration

    public init(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: Data = Data(),
        timeout: Duration = .seconds(10)
    ) {
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The timeout in whole milliseconds, at least 1 (libcurl reads 0 as "no timeout").
    var timeoutMilliseconds: Int {
        let (seconds, attoseconds) = timeout.components
        return max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// A complete response.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    /// Header fields in order, names as the server sent them.
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header's value by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why a request got no response.
public enum HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an absolute http(s) URL libcurl accepts.
    case invalidURL(String)
    /// Nothing answered at the address (server down, wrong port, name not found).
    case couldNotConnect(String)
    /// The exchange took longer than the request's timeout.
    case timedOut(String)
    /// The calling task was cancelled, or the client shut down.
    case cancelled
    /// Any other transport failure, with libcurl's code and message.
    case transport(code: Int, message: String)

    public var description: String {
        switch self {
        case .invalidURL(let url): "'\(url)' is not a valid http(s) URL; give a full URL like http://127.0.0.1:8766"
        case .couldNotConnect(let message): "could not connect (\(message)); check that the server is running"
        case .timedOut(let message): "the request timed out (\(message)); check the server or raise the timeout"
        case .cancelled: "the request was cancelled"
        case .transport(let code, let message): "HTTP transport error \(code): \(message)"
        }
    }
}
