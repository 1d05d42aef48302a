import HTTPTypes

/// The request line and header lines of one request head (each ending in CRLF, the final empty line
/// excluded), parsed strictly by RFC 9112: single spaces in the request line, a token method, an
/// origin-form target of visible ASCII, `HTTP/1.x`, `name: value` fields with token names and no
/// line folding, no bare CR or LF, one Content-Length value.
struct HeadLines {
    let bytes: UnsafeRawBufferPointer

    func parse(limits: RequestParser.Limits) -> Result<RequestHead, RequestRefusal> {
        var lines: [Range<Int>] = []
        var lineStart = 0
        for index in 0..<bytes.count where bytes[index] == 10 {
            // Every LF ends a line and must follow a CR; a CR anywhere else is refused below.
            guard index > lineStart, bytes[index - 1] == 13 else {
                return .failure(lines.isEmpty ? .malformedRequestLine : .malformedHeader)
            }
            lines.append(lineStart..<(index - 1))
            lineStart = index + 1
        }
        guard let requestLine = lines.first, lineStart == bytes.count else { return .failure(.malformedRequestLine) }
        var head: RequestHead
        switch parseRequestLine(requestLine, limits: limits) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let parsed): head = parsed
        }
        var contentLength: Int?
        for line in lines.dropFirst() {
            guard let (name, value) = field(line) else { return .failure(.malformedHeader) }
            switch name {
            case "content-length":
                guard let length = Self.decimal(value), contentLength == nil || contentLength == length else {
                    return .failure(.malformedContentLength)
                }
                contentLength = length
            case "transfer-encoding":
                return .failure(.chunkedBody)
            default:
                break
            }
            head.headers[name] = head.headers[name].map { "\($0), \(value)" } ?? value
        }
        head.contentLength = contentLength ?? 0
        if head.contentLength > limits.maxBodyBytes { return .failure(.bodyTooLarge(limits)) }
        return .success(head)
    }

    private func parseRequestLine(_ line: Range<Int>, limits: RequestParser.Limits) -> Result<RequestHead, RequestRefusal> {
        let parts = bytes[line].split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte) else {
            return .failure(.malformedRequestLine)
        }
        let target = parts[1]
        if target.count > limits.maxTargetBytes { return .failure(.uriTooLong(limits)) }
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(.malformedRequestLine)
        }
        let version = Array(parts[2])
        guard version.count == 8, version[0..<5].elementsEqual("HTTP/".utf8), version[6] == UInt8(ascii: "."),
            Self.isDigit(version[5]), Self.isDigit(version[7])
        else { return .failure(.malformedRequestLine) }
        guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else { return .failure(.unsupportedVersion) }
        return .success(RequestHead(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: target, as: UTF8.self),
            minorVersion: Int(version[7] - UInt8(ascii: "0")), headers: [:], contentLength: 0))
    }

    /// `name: value` with a lower-cased token name and the value without surrounding whitespace.
    private func field(_ line: Range<Int>) -> (String, String)? {
        let slice = bytes[line]
        guard let colon = slice.firstIndex(of: UInt8(ascii: ":")), colon > slice.startIndex,
            slice[..<colon].allSatisfy(Self.isTokenByte)
        else { return nil }
        var valueStart = colon + 1
        var valueEnd = slice.endIndex
        while valueStart < valueEnd, Self.isWhitespace(slice[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, Self.isWhitespace(slice[valueEnd - 1]) { valueEnd -= 1 }
        let value = slice[valueStart..<valueEnd]
        // Field values are visible characters, spaces, tabs and obs-text; no other control bytes (a bare CR).
        guard value.allSatisfy({ $0 >= 32 ? $0 != 127 : $0 == 9 }) else { return nil }
        let name = String(decoding: slice[..<colon], as: UTF8.self).lowercasedHTTPFieldName
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// A non-negative decimal of at most 18 digits (no sign, no spaces), else nil.
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 }

    /// RFC 9110 `tchar`: the bytes of a method or a field name.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), 48...57: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
