import FleetCore

/// Parses one decision-log line (a flat JSON object) straight from its bytes into a `LogEntry`.
///
/// Hand-written because the diagnosis reads millions of lines: it walks the bytes once, keeps only
/// the fields `LogEntry` names and skips the rest (nested arrays and objects included). Event, field
/// and action names come from FleetCore's schema (`DecisionEvent`, `LogField`, `PushAction`). Anything that
/// is not one complete JSON object — a truncated or garbled line — yields nil, never a crash.
public enum LogLineParser {
    /// The entry on `line` (without its newline), or nil when the line is not a complete decision-log object
    /// with `ts` and `event`.
    public static func parse(_ line: UnsafeRawBufferPointer) -> LogEntry? {
        var cursor = JSONCursor(bytes: line)
        return cursor.parseEntry()
    }

    /// Convenience for tests and small inputs.
    public static func parse(_ line: String) -> LogEntry? {
        var copy = line
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}

/// A forward-only reader over one line's bytes.
struct JSONCursor {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func parseEntry() -> LogEntry? {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var ts: Double?
        var event: DecisionEvent??
        var entry = LogEntry(ts: 0, event: nil)
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            while true {
                skipSpace()
                guard let key = parseKey() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch key {
                case .ts: guard let value = parseNumberOrNull() else { return nil }; ts = value
                case .event:
                    // `"event": null` is no event at all; an unknown name is an entry the analysis ignores.
                    guard !takeLiteral("null"), let value = parseName(Self.events) else { return nil }
                    event = value
                case .deviceId: guard let value = parseStringOrNull() else { return nil }; entry.deviceId = value ?? "default"
                case .action: guard let value = parseName(Self.actions) else { return nil }; entry.action = value ?? nil
                case .token: guard let value = parseStringOrNull() else { return nil }; entry.token = value
                case .reason: guard let value = parseStringOrNull() else { return nil }; entry.reason = value
                case .status: guard let value = parseNumberOrNull() else { return nil }; entry.status = value.map { Int($0) }
                case .tokens: guard let value = parseNumberOrNull() else { return nil }; entry.tokens = value.map { Int($0) }
                case .ms: guard let value = parseNumberOrNull() else { return nil }; entry.milliseconds = value
                default: guard skipValue(depth: 0) else { return nil }
                }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        skipSpace()
        // A line needs a number `ts` and a string `event`; an event the schema does not know stays nil.
        guard index == bytes.count, let ts = ts ?? nil, let event else { return nil }
        entry.ts = ts
        entry.event = event
        return entry
    }

    // MARK: tokens

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { index += 1 }
    }

    private mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A string, or `.some(nil)` for `null`, or nil when malformed.
    private mutating func parseStringOrNull() -> String?? {
        if takeLiteral("null") { return .some(nil) }
        guard let string = parseString() else { return nil }
        return .some(string)
    }

    private mutating func parseNumberOrNull() -> Double?? {
        if takeLiteral("null") { return .some(nil) }
        guard let number = parseNumber() else { return nil }
        return .some(number)
    }

    /// The fields the entry keeps; any other key is skipped.
    static let keptFields = ByteNames(
        [LogField.ts, .event, .deviceId, .action, .token, .reason, .status, .tokens, .ms].map { ($0.rawValue, $0) })
    static let events = ByteNames(DecisionEvent.allCases.map { ($0.rawValue, $0) })
    static let actions = ByteNames(PushAction.allCases.map { ($0.rawValue, $0) })

    /// Reads an object key without building a String (the hot path: every key of every line);
    /// nil for a key the entry does not keep, which is then skipped. Only a malformed key fails the line.
    private mutating func parseKey() -> LogField?? {
        guard current == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        guard skipString() else { return nil }
        return .some(Self.keptFields.value(for: UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)])))
    }

    /// A string value looked up in `names` without building a String when it has no escapes:
    /// `.some(nil)` for `null` or a name `names` does not hold, nil when malformed.
    private mutating func parseName<Value>(_ names: ByteNames<Value>) -> Value?? {
        if takeLiteral("null") { return .some(nil) }
        guard current == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var hasEscapes = false
        index += 1
        while let byte = current, byte != UInt8(ascii: "\"") {
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index += 1
            } else if byte < 0x20 {
                return nil
            }
            index += 1
        }
        guard current != nil else { return nil }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        index += 1
        guard hasEscapes else { return .some(names.value(for: raw)) }
        guard let decoded = JSONEscapes.decode(raw) else { return nil }
        var copy = decoded
        return .some(copy.withUTF8 { names.value(for: UnsafeRawBufferPointer($0)) })
    }

    /// Moves past a string without decoding it; false when malformed.
    private mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") { index += 1 } else if byte < 0x20 { return false }
            index += 1
        }
        return false
    }

    mutating func parseString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var hasEscapes = false
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return hasEscapes ? JSONEscapes.decode(raw) : String(decoding: raw, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index += 1
            } else if byte < 0x20 {
                return nil
            }
            index += 1
        }
        return nil
    }

    private mutating func parseNumber() -> Double? {
        let start = index
        var isNegative = false
        if take(UInt8(ascii: "-")) { isNegative = true }
        var integer: Double = 0
        var digits = 0
        while let byte = current, byte >= 0x30, byte <= 0x39 {
            integer = integer * 10 + Double(byte - 0x30)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        var value = integer
        if take(UInt8(ascii: ".")) {
            var scale = 0.1
            var fractionDigits = 0
            while let byte = current, byte >= 0x30, byte <= 0x39 {
                value += Double(byte - 0x30) * scale
                scale /= 10
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        if let byte = current, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            // Rare in the log: fall back to the standard library for exponents.
            index += 1
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            while let byte = current, byte >= 0x30, byte <= 0x39 { index += 1 }
            return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }
        return isNegative ? -value : value
    }

    /// Skips any JSON value; false when malformed. Depth is bounded so a hostile line cannot overflow the stack.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth < 32, let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return takeLiteral("true")
        case UInt8(ascii: "f"): return takeLiteral("false")
        case UInt8(ascii: "n"): return takeLiteral("null")
        case UInt8(ascii: "["): return skipContainer(close: UInt8(ascii: "]"), isObject: false, depth: depth)
        case UInt8(ascii: "{"): return skipContainer(close: UInt8(ascii: "}"), isObject: true, depth: depth)
        default: return parseNumber() != nil
        }
    }

    private mutating func skipContainer(close: UInt8, isObject: Bool, depth: Int) -> Bool {
        index += 1
        skipSpace()
        if take(close) { return true }
        while true {
            skipSpace()
            if isObject {
                guard skipString() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
            }
            guard skipValue(depth: depth + 1) else { return false }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(close)
        }
    }
}
