import Foundation
import HTTPClient
import HTTPTypes

/// Sends in-memory requests over real HTTP to a server (the demo's hosts and phone call `lfg serve` through
/// its socket, like real ones), with libcurl rather than URLSession.
public struct LoopbackHTTPHandler: HTTPHandler {
    let client: HTTPClient
    /// `http://127.0.0.1:<port>`, no trailing slash.
    let baseURL: String

    public init(baseURL: String, client: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.client = client
    }

    /// Sends `request` (its path percent-encoded again, segment by segment). A request that gets no
    /// answer becomes a 503 naming why, so callers treat it like a server error and try later.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let url = baseURL + Self.encodedPath(request.path)
        let outgoing = HTTPClientRequest(
            method: request.method, url: url, headers: request.headers.map { (name: $0.key, value: $0.value) },
            body: request.body, timeout: .seconds(5))
        do {
            let answer = try await client.send(outgoing)
            return HTTPResponse(status: answer.status, headers: answer.headers, body: .bytes(answer.body))
        } catch {
            return .error(503, "no answer from \(baseURL): \(error)")
        }
    }

    /// `/api/sessions/a b` -> `/api/sessions/a%20b`.
    static func encodedPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }
}
