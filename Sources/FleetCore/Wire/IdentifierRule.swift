/// The one rule for ids the API takes in a path (`/api/sessions/{sid}`, `/api/hosts/{host}`,
/// `/api/devices/{deviceId}`) or a body (`deviceId`).
///
/// An id is 1 to 200 bytes of UTF-8 with no control characters, no `/` or `\`, and is not `.` or `..`.
/// Why: ids name rows and appear in logs and URLs; an id that a decoder could shorten (`x%00y`), merge
/// with another (`%ff` and `%fe` both read as U+FFFD) or read as a path step must be refused, not stored.
public enum IdentifierRule {
    /// The longest id, in UTF-8 bytes.
    public static let maxBytes = 200

    /// The rule in words, for error messages.
    public static let summary =
        "an id is 1 to \(maxBytes) bytes of UTF-8 text without control characters, '/' or '\\', and not '.' or '..'"

    /// Why `text` is not a valid id, or nil when it is.
    public static func problem(_ text: String) -> String? {
        let byteCount = text.utf8.count
        guard byteCount > 0 else { return "is empty; \(summary)" }
        guard byteCount <= maxBytes else { return "is \(byteCount) bytes long; \(summary)" }
        guard text != ".", text != ".." else { return "is '\(text)'; \(summary)" }
        for scalar in text.unicodeScalars where isRefused(scalar) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            return "contains U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code); \(summary)"
        }
        return nil
    }

    /// Whether `scalar` may not appear in an id: C0 and C1 controls, DEL, U+FFFD (what broken UTF-8
    /// decodes to), and the path separators.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFD: true
        case UInt32(UInt8(ascii: "/")), UInt32(UInt8(ascii: "\\")): true
        default: false
        }
    }

    /// Decodes one percent-encoded path segment strictly: every `%` starts two hex digits, and the bytes
    /// are valid UTF-8. Nil when the segment is not (a `%00` or a lone `%ff` never turns into an id).
    public static func percentDecoded(_ segment: Substring) -> String? {
        // Most segments hold no escape: they are their own text (a String's bytes are valid UTF-8 already).
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.utf8.count)
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
