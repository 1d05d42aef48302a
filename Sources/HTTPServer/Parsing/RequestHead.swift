import Foundation
import HTTPTypes

/// A request line and its header fields, parsed strictly (``RequestParser``), before the body arrives.
struct RequestHead: Equatable, Sendable {
    /// The method as sent (a token; ``HTTPRequest`` upper-cases it).
    var method: String
    /// The request target exactly as sent, path and query, still percent-encoded.
    var target: String
    /// `HTTP/1.0` is `0`, `HTTP/1.1` is `1`.
    var minorVersion: Int
    /// Header fields with lower-cased names; a repeated field's values are joined with ", ".
    var headers: [String: String]
    /// The body's declared length (0 without Content-Length).
    var contentLength: Int

    /// Whether the connection may carry another request after this one: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var isKeepAlive: Bool {
        let tokens = headers["connection"].map(Self.tokens) ?? []
        if minorVersion == 0 { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }

    /// Whether the client waits for `100 Continue` before sending its body (libcurl does for large bodies).
    var expectsContinue: Bool {
        minorVersion >= 1 && headers["expect"]?.lowercased() == "100-continue"
    }

    /// The request as handlers see it, with `body` and the peer's address.
    func request(body: Data, remoteAddress: String?) -> HTTPRequest {
        let pathEnd = target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.utf8.endIndex
        let rawPath = String(target[..<pathEnd])
        let query = pathEnd == target.utf8.endIndex ? [:] : Self.queryArguments(target[target.index(after: pathEnd)...])
        var request = HTTPRequest(
            method: method, path: Self.decoded(rawPath), query: query, body: body, remoteAddress: remoteAddress,
            rawPath: rawPath)
        request.headers = headers  // lower-cased by the parser: set as is, the initializer would check each name
        return request
    }

    /// `text` percent-decoded, or as sent when that is not UTF-8 (ids are decoded strictly from `rawPath`).
    static func decoded(_ text: some StringProtocol) -> String {
        // Most paths have nothing to decode, and Foundation's decoding is slow.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return text.removingPercentEncoding ?? String(text)
    }

    /// `a=1&b=c%2Fd+e` as decoded pairs (`+` is a space, as in HTML forms and as libmicrohttpd read it;
    /// `%2B` is a plus); a repeated name keeps its last value, a name without `=` has "".
    static func queryArguments(_ query: Substring) -> [String: String] {
        var arguments: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: "=") {
                arguments[argument(pair[..<equals])] = argument(pair[pair.index(after: equals)...])
            } else {
                arguments[argument(pair)] = ""
            }
        }
        return arguments
    }

    private static func argument(_ text: Substring) -> String {
        decoded(text.utf8.contains(UInt8(ascii: "+")) ? text.replacingOccurrences(of: "+", with: " ") : String(text))
    }

    private static func tokens(_ value: String) -> [String] {
        value.lowercased().split(separator: ",").map { String($0.trimmingHTTPWhitespace) }
    }
}
