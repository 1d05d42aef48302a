/// What a pairing QR code (and a pasted pairing link) carries: the server's base URL and a one-time
/// pairing code. The one definition of the link format, for the server that prints it and the app that
/// reads it:
///
///     lfg://pair?server=<base URL, percent-encoded>&code=<pairing code>
///
/// e.g. `lfg://pair?server=https://mac.example.ts.net:8766&code=3f9c…` (`:` and `/` stay as they are,
/// so the code stays small). The app trades the code for its own device credential at
/// `POST <server>/api/pair`.
public struct PairingLink: Hashable, Sendable, CustomStringConvertible {
    public static let scheme = "lfg"
    public static let host = "pair"

    /// The server's base URL, `http://` or `https://`, without a trailing slash.
    public var server: String
    /// The one-time pairing code.
    public var code: String

    /// A link for `server` (a trailing slash is dropped) and `code`.
    public init(server: String, code: String) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.code = code
    }

    /// The link as text (what the QR code encodes).
    public var text: String {
        "\(Self.scheme)://\(Self.host)?server=\(Self.encoded(server))&code=\(Self.encoded(code))"
    }

    /// The server as a short name for the app's list: host and port, no scheme or path.
    public var serverName: String {
        let afterScheme = server.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
        return afterScheme.map(String.init) ?? server
    }

    public var description: String { "\(Self.scheme)://\(Self.host)?server=\(server)&code=\(code.prefix(4))…" }

    /// Reads a scanned or pasted link (surrounding whitespace ignored); throws what is wrong with it.
    public init(parsing input: String) throws(PairingLinkError) {
        let text = Self.trimmed(input)
        let prefix = "\(Self.scheme)://\(Self.host)?"
        guard text.lowercased().hasPrefix(prefix) else { throw .notAPairingLink }
        var server: String?
        var code: String?
        for pair in text.dropFirst(prefix.count).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = Self.decoded(parts[1]) else { throw .unreadable(String(parts[0])) }
            switch parts[0] {
            case "server": server = value
            case "code": code = value
            default: continue  // a later version may add fields; this one ignores them
            }
        }
        guard let server, !server.isEmpty else { throw .missing("server") }
        guard let code, !code.isEmpty else { throw .missing("code") }
        guard code.utf8.allSatisfy(Self.isCodeCharacter) else { throw .unreadable("code") }
        let lower = server.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
            server.split(separator: "/", omittingEmptySubsequences: true).count >= 2
        else { throw .badServer(server) }
        self.init(server: server, code: code)
    }

    static func isCodeCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Percent-encodes all but unreserved characters and `:` `/`.
    static func encoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if isCodeCharacter(byte) || "-._~:/".utf8.contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = "0123456789ABCDEF".utf8.map { $0 }
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }

    /// Percent-decodes `text` as UTF-8; nil when an escape or the result is invalid.
    static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// Why a scanned or pasted text is not a usable pairing link, in words for the person holding the phone.
public enum PairingLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    case notAPairingLink
    case missing(String)
    case unreadable(String)
    case badServer(String)

    public var description: String {
        switch self {
        case .notAPairingLink: "this is not an LFG pairing link (it starts with lfg://pair?); run lfg pair on your computer"
        case .missing(let field): "the pairing link has no \(field); copy the whole link lfg pair printed"
        case .unreadable(let field): "the pairing link's \(field) is garbled; copy the whole link again"
        case .badServer(let server): "'\(server)' is not a server address (http:// or https:// and a host)"
        }
    }
}
