/// Reads HTTP/1.1 requests out of a connection's received bytes, strictly: bytes in, a request, "need
/// more" or a refusal out. Pure: no socket, no clock; the connection calls it again as bytes arrive.
///
/// The caller passes everything received and not yet consumed, always starting at the same request's
/// first byte (the bytes only grow between calls until `complete`, then the caller drops `consumed`
/// bytes). The parser remembers how far it looked for the end of the head and the parsed head while
/// the body arrives, so a request split over many reads costs no rescans.
///
/// Only `Content-Length` bodies are read: `Transfer-Encoding` is refused (411) before any body byte,
/// as is a declared body over the limit (413). A refusal ends the connection.
struct RequestParser {
    struct Limits: Equatable, Sendable {
        /// The longest request target; a longer one is a 414.
        var maxTargetBytes = 8 * 1024
        /// The longest request line plus header fields; longer is a 431 (a 414 when the line alone is).
        var maxHeadBytes = 32 * 1024
        /// The largest declared body; larger is a 413.
        var maxBodyBytes: Int
    }

    enum Outcome: Equatable {
        /// Not even the head is complete: read more.
        case incomplete
        /// The head is complete, the body is not: read more (after `100 Continue` when the head expects it).
        case awaitingBody(RequestHead)
        /// A whole request: the head, where its body lies in the bytes, and how many bytes it took.
        case complete(RequestHead, body: Range<Int>, consumed: Int)
        /// A request that is never served; answer `status` with `message` and close the connection.
        case refused(RequestRefusal)
    }

    let limits: Limits
    /// How far the search for the head's end got (it resumes there).
    private var scanned = 0
    /// The parsed head and where the body starts, once the head is complete.
    private var head: (head: RequestHead, bodyStart: Int)?

    init(limits: Limits) { self.limits = limits }

    /// Parses the bytes of one request received so far (see the type's summary).
    mutating func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if head == nil {
            switch findHead(bytes) {
            case .incomplete: return .incomplete
            case .refused(let refusal): return .refused(refusal)
            case .found(let parsed): head = parsed
            }
        }
        guard let (head, bodyStart) = head else { return .incomplete }
        let bodyEnd = bodyStart + head.contentLength
        guard bytes.count >= bodyEnd else { return .awaitingBody(head) }
        self = RequestParser(limits: limits)
        return .complete(head, body: bodyStart..<bodyEnd, consumed: bodyEnd)
    }

    private enum HeadSearch {
        case incomplete
        case refused(RequestRefusal)
        case found((head: RequestHead, bodyStart: Int))
    }

    private mutating func findHead(_ bytes: UnsafeRawBufferPointer) -> HeadSearch {
        // Empty lines before a request line are ignored (RFC 9112 2.2), e.g. a stray CRLF after a body.
        var start = 0
        while start + 1 < bytes.count, bytes[start] == 13, bytes[start + 1] == 10 { start += 2 }
        var index = max(start + 3, scanned)
        while index < bytes.count {
            if bytes[index] == 10, bytes[index - 1] == 13, bytes[index - 2] == 10, bytes[index - 3] == 13 { break }
            index += 1
        }
        scanned = index
        guard index < bytes.count else {
            let pending = bytes.count - start
            // A request line that cannot fit the target limit is a 414 before it even ends.
            if pending > limits.maxTargetBytes + 32, !bytes[start...].contains(10) { return .refused(.uriTooLong(limits)) }
            if pending > limits.maxHeadBytes { return .refused(.headTooLarge(limits)) }
            return .incomplete
        }
        let headEnd = index + 1
        // Refused before its lines are parsed: an oversized head can arrive whole in one read.
        if headEnd - start > limits.maxHeadBytes { return .refused(.headTooLarge(limits)) }
        let lines = HeadLines(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<(headEnd - 2)]))
        switch lines.parse(limits: limits) {
        case .failure(let refusal): return .refused(refusal)
        case .success(let head): return .found((head, headEnd))
        }
    }
}

extension RequestParser {
    /// Parses `bytes` as one request, for tests and callers holding an array.
    mutating func parse(_ bytes: [UInt8]) -> Outcome {
        bytes.withUnsafeBytes { parse($0) }
    }
}
