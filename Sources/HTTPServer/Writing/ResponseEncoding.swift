import Foundation
import HTTPTypes

/// How an answer goes on the wire (pure): the status line and header fields, the body's framing, and
/// chunks of a streaming body.
enum ResponseEncoding {
    /// How the body that follows the head is delimited.
    enum Framing: Equatable {
        /// `Content-Length: n`; `n` bytes follow (none for HEAD, whose answer still says the length).
        case length(Int)
        /// `Transfer-Encoding: chunked` (a stream to an HTTP/1.1 client).
        case chunked
        /// No length: the body ends when the connection closes (a stream to an HTTP/1.0 client).
        case untilClose
        /// No body at all (1xx, 204, 304).
        case none
    }

    /// The framing of `response` for a client speaking HTTP/1.`minorVersion`.
    static func framing(of response: HTTPResponse, minorVersion: Int) -> Framing {
        if response.status < 200 || response.status == 204 || response.status == 304 { return .none }
        switch response.body {
        case .bytes(let data): return .length(data.count)
        case .stream: return minorVersion >= 1 ? .chunked : .untilClose
        }
    }

    /// Appends the status line and header fields of `response` to `output`, with the framing header,
    /// `Connection: close` when the connection ends after it (or `keep-alive` for an HTTP/1.0 client
    /// that keeps it) and `Date`.
    static func appendHead(
        of response: HTTPResponse, framing: Framing, isClosing: Bool, minorVersion: Int, date: String,
        to output: inout [UInt8]
    ) {
        if let line = statusLines[response.status] {
            output.append(contentsOf: line)
        } else {
            output.append(contentsOf: "HTTP/1.1 \(response.status) \(reason(for: response.status))\r\n".utf8)
        }
        for (name, value) in response.headers {
            output.append(contentsOf: name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        switch framing {
        case .length(let count):
            output.append(contentsOf: "Content-Length: ".utf8)
            output.append(contentsOf: String(count).utf8)
            output.append(contentsOf: "\r\n".utf8)
        case .chunked: output.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        case .untilClose, .none: break
        }
        if isClosing {
            output.append(contentsOf: "Connection: close\r\n".utf8)
        } else if minorVersion == 0 {
            output.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        output.append(contentsOf: "Date: ".utf8)
        output.append(contentsOf: date.utf8)
        output.append(contentsOf: "\r\n\r\n".utf8)
    }

    /// Appends one chunk of a streaming body (nothing for an empty chunk, which would end the body).
    static func appendChunk(_ chunk: Data, framing: Framing, to output: inout [UInt8]) {
        guard !chunk.isEmpty else { return }
        if framing == .chunked { output.append(contentsOf: "\(String(chunk.count, radix: 16))\r\n".utf8) }
        output.append(contentsOf: chunk)
        if framing == .chunked { output.append(contentsOf: "\r\n".utf8) }
    }

    /// The end of a chunked body.
    static let lastChunk = Array("0\r\n\r\n".utf8)

    /// `HTTP/1.1 100 Continue`, sent before a body the client holds back for it.
    static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The status lines of the common statuses, encoded once.
    private static let statusLines: [Int: [UInt8]] = Dictionary(
        uniqueKeysWithValues: [200, 201, 202, 204, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503].map {
            ($0, Array("HTTP/1.1 \($0) \(reason(for: $0))\r\n".utf8))
        })

    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
