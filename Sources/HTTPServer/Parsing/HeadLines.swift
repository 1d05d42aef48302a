import HTTPTypes

/// The request line and header lines of one request head (each ending in CRLF, the final empty line
/// excluded), parsed strictly by RFC 9112: single spaces in the request line, a token method, an
/// origin-form target of visible ASCII, `HTTP/1.x`, `name: value` fields with token names and no
/// line folding, no bare CR or LF, one Content-Length value.
struct HeadLines {
    let bytes: UnsafeRawBufferPointer

    func parse(limits: RequestParser.Limits) -> Result<RequestHead, RequestRefusal> {
        // Every LF ends a line and must follow a CR; a CR anywhere else is refused by the line's own check.
        guard let requestLineEnd = lineEnd(from: 0) else { return .failure(.malformedRequestLine) }
        var head: RequestHead
        switch parseRequestLine(0..<requestLineEnd, limits: limits) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let parsed): head = parsed
        }
        var contentLength: Int?
        // Room for a usual request's fields at once (growing 1, 2, 4, 8 rehashed them each time).
        head.headers.reserveCapacity(8)
        var lineStart = requestLineEnd + 2
        while lineStart < bytes.count {
            guard let end = lineEnd(from: lineStart), let (name, value) = field(lineStart..<end) else {
                return .failure(.malformedHeader)
            }
            lineStart = end + 2
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
            // One hash per field; a repeated field (rare) joins its values.
            if let earlier = head.headers.updateValue(value, forKey: name) { head.headers[name] = "\(earlier), \(value)" }
        }
        head.contentLength = contentLength ?? 0
        if head.contentLength > limits.maxBodyBytes { return .failure(.bodyTooLarge(limits)) }
        return .success(head)
    }

    /// Where the line starting at `start` ends (the index of its CR), or nil when its LF has no CR before it.
    private func lineEnd(from start: Int) -> Int? {
        var index = start
        while index < bytes.count, bytes[index] != 10 { index += 1 }
        guard index < bytes.count, index > start, bytes[index - 1] == 13 else { return nil }
        return index - 1
    }

    private func parseRequestLine(_ line: Range<Int>, limits: RequestParser.Limits) -> Result<RequestHead, RequestRefusal> {
        let slice = bytes[line]
        guard let methodEnd = slice.firstIndex(of: 32), methodEnd > line.lowerBound,
            let targetEnd = slice[(methodEnd + 1)...].firstIndex(of: 32),
            slice[line.lowerBound..<methodEnd].allSatisfy(Self.isTokenByte)
        else { return .failure(.malformedRequestLine) }
        let target = slice[(methodEnd + 1)..<targetEnd]
        if target.count > limits.maxTargetBytes { return .failure(.uriTooLong(limits)) }
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(.malformedRequestLine)
        }
        let version = slice[(targetEnd + 1)...]
        let start = version.startIndex
        guard version.count == 8, version[start..<(start + 5)].elementsEqual("HTTP/".utf8),
            version[start + 6] == UInt8(ascii: "."), Self.isDigit(version[start + 5]), Self.isDigit(version[start + 7])
        else { return .failure(.malformedRequestLine) }
        guard version[start + 5] == UInt8(ascii: "1"), version[start + 7] <= UInt8(ascii: "1") else {
            return .failure(.unsupportedVersion)
        }
        return .success(RequestHead(
            method: String(decoding: slice[line.lowerBound..<methodEnd], as: UTF8.self),
            target: String(decoding: target, as: UTF8.self),
            minorVersion: Int(version[start + 7] - UInt8(ascii: "0")), headers: [:], contentLength: 0))
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
        return (Self.lowercasedASCII(slice[..<colon]), String(decoding: value, as: UTF8.self))
    }

    /// A non-negative decimal of at most 18 digits (no sign, no spaces), else nil.
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    /// A token's bytes (ASCII only) as a lower-cased string, in one pass.
    private static func lowercasedASCII(_ token: Slice<UnsafeRawBufferPointer>) -> String {
        String(unsafeUninitializedCapacity: token.count) { buffer in
            for (offset, byte) in token.enumerated() {
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            }
            return token.count
        }
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
