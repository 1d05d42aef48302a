import FleetCore

/// The heartbeat on the wire, defined once: its path and body for every sender (libcurl's and the plain
/// socket's), the whole HTTP/1.1 request for the plain socket, and how the answer's status line is read.
public enum HeartbeatMessage {
    /// `{basePath}/api/hosts/{host}`, the host name percent-encoded as one path segment.
    public static func path(basePath: String, host: HostID) -> String {
        basePath + "/api/hosts/" + percentEncoded(host)
    }

    /// `{"ttlSeconds":N}`, N whole seconds rounded up (a TTL never shortened by rounding).
    public static func body(ttlSeconds: Double) -> String {
        "{\"ttlSeconds\":\(Int(ttlSeconds.rounded(.up)))}"
    }

    /// The whole `PUT` for a plain HTTP/1.1 connection that closes after the answer (one request per
    /// connection: a heartbeat every 20 s is cheaper than holding a socket the server would time out).
    public static func request(to address: ServerAddress, host: HostID, token: String?, ttlSeconds: Double) -> [UInt8] {
        let body = body(ttlSeconds: ttlSeconds)
        var head = "PUT \(path(basePath: address.basePath, host: host)) HTTP/1.1\r\n"
        head += "Host: \(address.hostHeader)\r\n"
        head += "User-Agent: lfg-host\r\n"
        head += "Content-Type: application/json\r\n"
        head += "Content-Length: \(body.utf8.count)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// What reading an answer has come to so far.
    public enum Answer: Hashable, Sendable {
        /// The status line is not complete yet: read more.
        case incomplete
        /// The status code of a complete `HTTP/1.x NNN …` line.
        case status(Int)
        /// The bytes are not an HTTP/1.x answer (say what they start with, for the log).
        case malformed(String)
    }

    /// Reads the status line from the start of an answer (the headers and body are not needed).
    public static func answer(_ bytes: [UInt8]) -> Answer {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            return bytes.count > 1024 ? .malformed("an over-long first line") : .incomplete
        }
        var line = String(decoding: bytes[..<end], as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]), code >= 100 else {
            return .malformed("'\(line.prefix(40))'")
        }
        return .status(code)
    }

    /// A path segment with everything but unreserved characters (RFC 3986) percent-encoded.
    public static func percentEncoded(_ host: HostID) -> String {
        var out = ""
        for byte in host.rawValue.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }
}
