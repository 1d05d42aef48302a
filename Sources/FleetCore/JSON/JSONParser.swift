/// Parses JSON text into a ``JSONValue``, strictly (RFC 8259): no comments, no trailing commas, no
/// repeated keys, no byte-order mark, UTF-8 only, at most ``maxDepth`` levels of nesting.
///
/// Why strict: one reader must not take `{"env":"sandbox","env":"bogus"}` as sandbox while another takes
/// it as bogus; whatever is ambiguous is refused with the line and column. Every decoder of outside
/// input (API bodies, hook payloads, settings files) reads through this one parser.
public enum JSONParser {
    /// Deep nesting would overflow the stack; no request, settings file or hook payload needs this much.
    public static let maxDepth = 512

    /// Why a text is not JSON, with the line and column (both from 1) where parsing stopped.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var problem: String
        public var description: String { "line \(line), column \(column): \(problem)" }
    }

    /// Parses one JSON value that fills `text` (surrounding whitespace allowed).
    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses one JSON value that fills `bytes`, which must be UTF-8 without a byte-order mark
    /// (a UTF-16 or UTF-32 text is refused as such, not misread).
    public static func parse(bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var scanner = Scanner(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw scanner.error("the text starts with a byte-order mark; send UTF-8 without one")
        }
        if bytes.contains(0) {
            throw scanner.error("the text contains zero bytes (UTF-16 or UTF-32?); send UTF-8")
        }
        if String(validating: bytes, as: UTF8.self) == nil {
            throw scanner.error("the text is not valid UTF-8")
        }
        scanner.skipWhitespace()
        let value = try scanner.value(depth: 0)
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw scanner.error("unexpected text after the JSON value") }
        return value
    }
}

/// A byte cursor over UTF-8 JSON text.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    let maxDepth = JSONParser.maxDepth

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    func error(_ problem: String) -> JSONParser.SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParser.SyntaxError(line: line, column: column, problem: problem)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth < maxDepth else { throw error("nested too deep: more than \(maxDepth) levels") }
        guard !isAtEnd else { throw error("unexpected end of text, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character, expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParser.SyntaxError) {
        let count = word.utf8CodeUnitCount
        let isMatch = word.withUTF8Buffer { expected in
            bytes.count - index >= count && bytes[index..<index + count].elementsEqual(expected)
        }
        guard isMatch else { throw error("unexpected character, expected a value") }
        index += count
    }

    mutating func object(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        index += 1
        var members: [JSONObject.Member] = []
        // Repeated keys: a scan of the few members so far; a set only once an object grows large.
        var keys: Set<String>?
        skipWhitespace()
        if !isAtEnd, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard !isAtEnd, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = index
            let key = try string()
            if keys == nil, members.count >= 16 { keys = Set(members.map(\.key)) }
            let isRepeated = keys != nil ? !keys!.insert(key).inserted : members.contains { $0.key == key }
            guard !isRepeated else {
                index = keyStart
                throw error("the key '\(key)' appears twice; send each key once")
            }
            skipWhitespace()
            guard !isAtEnd, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            index += 1
            skipWhitespace()
            members.append(JSONObject.Member(key: key, value: try value(depth: depth + 1)))
            skipWhitespace()
            guard !isAtEnd else { throw error("unexpected end of text, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            return .object(JSONObject(members))
        }
    }

    mutating func array(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if !isAtEnd, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard !isAtEnd else { throw error("unexpected end of text, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            return .array(elements)
        }
    }

    mutating func number() throws(JSONParser.SyntaxError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw error("expected a digit") }
        if !isAtEnd, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected a digit after '.'") }
        }
        if !isAtEnd, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if !isAtEnd, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func digits() -> Int {
        let start = index
        while !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    mutating func string() throws(JSONParser.SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var hasEscapes = false
        var runStart = index
        func flushRun(_ scanner: Scanner) {
            scalars.append(contentsOf: String(decoding: scanner.bytes[runStart..<scanner.index], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard !isAtEnd else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // Most strings have no escape: their bytes (valid UTF-8, checked up front) are the string.
                guard hasEscapes else {
                    defer { index += 1 }
                    return String(decoding: bytes[runStart..<index], as: UTF8.self)
                }
                flushRun(self)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw error("control character inside a string; escape it") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            flushRun(self)
            hasEscapes = true
            index += 1
            guard !isAtEnd else { throw error("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
            default: throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
            }
            runStart = index
        }
    }

    /// `\uXXXX`, joining a surrogate pair; a lone surrogate becomes U+FFFD rather than failing.
    mutating func unicodeEscape() throws(JSONParser.SyntaxError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high), bytes.count - index >= 6,
            bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        {
            index += 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            return "\u{FFFD}"
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    mutating func hex4() throws(JSONParser.SyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[index]) else { throw error("expected four hex digits after \\u") }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
