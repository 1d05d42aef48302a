import Foundation

/// One HTTP request as handlers see it: parsed, with the whole body read (bounded by the server).
public struct HTTPRequest: Sendable, Equatable {
    /// Upper-case method, e.g. `GET`.
    public var method: String
    /// The path without the query, percent-decoded, e.g. `/api/sessions/a%20b` -> `/api/sessions/a b`.
    public var path: String
    /// Query parameters; a repeated name keeps its last value.
    public var query: [String: String]
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: Data
    /// The peer's address as text (`127.0.0.1`), when known.
    public var remoteAddress: String?
    /// The path exactly as sent, still percent-encoded, when the request came over the wire (nil for
    /// requests made in memory). Ids are read from it segment by segment, strictly (`IdentifierRule`),
    /// so `%2F` stays inside its segment and `%00` or broken UTF-8 is refused rather than repaired.
    public var rawPath: String?

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: Data = Data(), remoteAddress: String? = nil, rawPath: String? = nil
    ) {
        self.rawPath = rawPath
        self.method = method.uppercasedHTTPMethod
        self.path = path
        self.query = query
        // Names usually arrive lower-case already (HTTP/2 requires it, servers lower them): then the
        // dictionary is kept as it is rather than hashed again into a new one.
        if headers.keys.allSatisfy(\.isLowercasedHTTPFieldName) {
            self.headers = headers
        } else {
            var lowered: [String: String] = [:]
            for (name, value) in headers { lowered[name.lowercasedHTTPFieldName] = value }
            self.headers = lowered
        }
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// A header's value by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercasedHTTPFieldName] }

    /// The path split on `/`, without empty parts: `/api/sessions/x` -> `["api", "sessions", "x"]`.
    public var pathComponents: [String] { path.split(separator: "/").map(String.init) }
}
