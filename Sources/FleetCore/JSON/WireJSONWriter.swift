/// Writes JSON straight into one byte buffer by the wire's rules (HTTPTypes' `WireJSON`): strings with only
/// `"`, `\` and control characters escaped (`/` and non-ASCII as they are), numbers as Swift describes them
/// without a trailing `.0`, and no whitespace. `WireJSONEncoder` writes its strings and numbers through
/// ``appendString(_:to:)`` and ``numberText(_:)``, so the two cannot disagree on them.
///
/// Why a writer beside the encoder: the answer to every `PUT /api/sessions/{sid}`, every listing of
/// `GET /api/sessions` and every stored session row are JSON, and going through `Encodable` (containers,
/// a tree of nodes, then the bytes) was most of their cost (bench/ingest.sh's profile). A type the hot
/// path encodes conforms to ``WireJSONWritable`` and writes its members itself, in key order; a test
/// compares its bytes with its `Encodable` encoding over many random values.
public struct WireJSONWriter: Sendable {
    /// What was written so far.
    public var bytes: [UInt8] { output }

    // Inlinable, as is every call below: the writer's calls are small and many (a dozen per listing), and
    // from another module each was a call through the generic entry point (bench/ingest.sh's profile).
    @usableFromInline var output: [UInt8] = []
    /// Whether the next value or member follows another one in the same object or array (needs a comma).
    @usableFromInline var followsValue = false

    @inlinable
    public init(capacity: Int = 512) {
        output.reserveCapacity(capacity)
    }

    /// Starts an object (as a member's value, an array's element or the whole document).
    @inlinable
    public mutating func beginObject() {
        separate()
        output.append(UInt8(ascii: "{"))
        followsValue = false
    }

    @inlinable
    public mutating func endObject() {
        output.append(UInt8(ascii: "}"))
        followsValue = true
    }

    @inlinable
    public mutating func beginArray() {
        separate()
        output.append(UInt8(ascii: "["))
        followsValue = false
    }

    @inlinable
    public mutating func endArray() {
        output.append(UInt8(ascii: "]"))
        followsValue = true
    }

    /// A member's key; its value is written next. Keys must come in UTF-8 byte order (the wire's sorted
    /// keys) and need no escape: they are the writing type's own literals.
    @inlinable
    public mutating func key(_ key: StaticString) {
        separate()
        output.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
        followsValue = false
    }

    @inlinable
    public mutating func string(_ text: String) {
        separate()
        Self.appendString(text, to: &output)
        followsValue = true
    }

    @inlinable
    public mutating func bool(_ flag: Bool) {
        separate()
        output.append(contentsOf: flag ? Self.trueBytes : Self.falseBytes)
        followsValue = true
    }

    @inlinable
    public mutating func null() {
        separate()
        output.append(contentsOf: Self.nullBytes)
        followsValue = true
    }

    /// A number; throws for NaN and the infinities (JSON has no such numbers), as the encoder does.
    @inlinable
    public mutating func number(_ value: Double) throws {
        guard let text = Self.numberText(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        separate()
        output.append(contentsOf: text.utf8)
        followsValue = true
    }

    /// A value that writes itself.
    @inlinable
    public mutating func value(_ value: some WireJSONWritable) throws {
        try value.write(to: &self)
    }

    // Members, the common shapes: the key, then the value.

    @inlinable
    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        string(value)
    }

    @inlinable
    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    @inlinable
    public mutating func member(_ key: StaticString, _ value: Double) throws {
        self.key(key)
        try number(value)
    }

    @inlinable
    public mutating func member(_ key: StaticString, _ value: some WireJSONWritable) throws {
        self.key(key)
        try value.write(to: &self)
    }

    /// The member only when `value` is not nil (`encodeIfPresent`).
    @inlinable
    public mutating func member(_ key: StaticString, ifPresent value: String?) {
        if let value { member(key, value) }
    }

    @inlinable
    public mutating func member(_ key: StaticString, ifPresent value: Bool?) {
        if let value { member(key, value) }
    }

    @inlinable
    public mutating func member(_ key: StaticString, ifPresent value: Double?) throws {
        if let value { try member(key, value) }
    }

    @inlinable
    public mutating func member(_ key: StaticString, ifPresent value: (some WireJSONWritable)?) throws {
        if let value { try member(key, value) }
    }

    /// The member, `null` when `value` is nil (`encode` of an optional).
    @inlinable
    public mutating func member(_ key: StaticString, orNull value: (some WireJSONWritable)?) throws {
        if let value { try member(key, value) } else { self.key(key); null() }
    }

    @inlinable
    public mutating func member(_ key: StaticString, ifPresent values: [String]?) {
        guard let values else { return }
        self.key(key)
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    @inlinable
    mutating func separate() {
        if followsValue { output.append(UInt8(ascii: ",")) }
    }

    @usableFromInline static let trueBytes = Array("true".utf8)
    @usableFromInline static let falseBytes = Array("false".utf8)
    @usableFromInline static let nullBytes = Array("null".utf8)
}

extension WireJSONWriter {
    /// A number's text on the wire: its description without a trailing `.0` (`1.0` is `1`, as Foundation's
    /// JSONEncoder writes it on Linux); nil for NaN and the infinities.
    public static func numberText<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as JSONEncoder writes them
    /// (`\b \f \n \r \t`, else `\u00XX`), `/` and everything else (non-ASCII included) as is.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copy it whole. Scanned as one buffer of bytes when the string has one
        // (a native or literal string always does): walking `utf8` index by index was most of the cost.
        let isCopied = text.utf8.withContiguousStorageIfAvailable { buffer in
            guard !buffer.contains(where: needsEscape) else { return false }
            bytes.append(contentsOf: buffer)
            return true
        }
        if isCopied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether a string's byte must be escaped: a control character, `"` or `\`.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}

/// A type that writes its own JSON with a ``WireJSONWriter``: the bytes its `Encodable` conformance gives
/// under `WireJSON` (sorted keys), which `WireJSON.encode` then writes this way, much faster. A conforming
/// type keeps a test that compares both encodings over random values, so the two cannot drift.
public protocol WireJSONWritable {
    /// Writes this value (one whole JSON value: an object's braces included).
    func write(to writer: inout WireJSONWriter) throws
}
