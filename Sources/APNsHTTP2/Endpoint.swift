/// An APNs base URL taken apart: `https://host[:port]` (TLS, ALPN h2) or `http://host[:port]` (h2c, prior knowledge).
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    public let isTLS: Bool
    public let host: String
    public let port: UInt16

    /// Parses `url`; throws naming what is wrong.
    public init(url: String) throws(HTTP2TransportError) {
        let rest: Substring
        if url.hasPrefix("https://") {
            isTLS = true
            rest = url.dropFirst(8)
        } else if url.hasPrefix("http://") {
            isTLS = false
            rest = url.dropFirst(7)
        } else {
            throw HTTP2TransportError("'\(url)' is not an http:// or https:// URL")
        }
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var host = Substring(authority)
        var port: UInt16 = isTLS ? 443 : 80
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = UInt16(after.dropFirst()) else { throw HTTP2TransportError("'\(url)' has a bad port") }
                port = number
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = UInt16(host[host.index(after: colon)...]) else {
                throw HTTP2TransportError("'\(url)' has a bad port")
            }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw HTTP2TransportError("'\(url)' names no host") }
        self.host = String(host)
        self.port = port
    }

    /// The `:authority` pseudo-header.
    public var authority: String {
        let isDefault = port == (isTLS ? 443 : 80)
        let name = host.contains(":") ? "[\(host)]" : host
        return isDefault ? name : "\(name):\(port)"
    }

    public var description: String { (isTLS ? "https://" : "http://") + authority }
}

/// A transport setup failure: what is wrong and what to do.
public struct HTTP2TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
