/// Where the host agent reaches `lfg serve`: `LFG_URL` taken apart once, so the plain-socket heartbeat and
/// `lfg host` (which picks the resident binary by scheme) read it the same way.
public struct ServerAddress: Hashable, Sendable {
    /// `http` (plain TCP: loopback or a LAN) or `https` (TLS, through libcurl).
    public enum Scheme: String, Hashable, Sendable {
        case http, https

        /// The port a URL without one means.
        public var defaultPort: UInt16 { self == .http ? 80 : 443 }
    }

    public var scheme: Scheme
    /// The host name or address, without IPv6 brackets (`::1`, `127.0.0.1`, `mac-mini.local`).
    public var host: String
    public var port: UInt16
    /// The path the server is mounted under, without a trailing slash (`""` at the root, `/lfg` behind a proxy).
    public var basePath: String

    /// Whether talking to it needs TLS.
    public var needsTLS: Bool { scheme == .https }

    /// The `Host` header's value: the name, and the port when it is not the scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == scheme.defaultPort ? name : "\(name):\(port)"
    }

    /// Reads `http://host[:port][/path]` or `https://…`; a query, a fragment or user info is refused.
    public init(parsing url: String) throws(ServerAddressError) {
        let lowered = url.lowercased()
        let rest: Substring
        if lowered.hasPrefix("http://") {
            scheme = .http
            rest = url.dropFirst("http://".count)
        } else if lowered.hasPrefix("https://") {
            scheme = .https
            rest = url.dropFirst("https://".count)
        } else {
            throw ServerAddressError(url: url, problem: "it must start with http:// or https://")
        }
        guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" || $0 == " " }) else {
            throw ServerAddressError(url: url, problem: "it must be a plain server address, without ?, #, @ or spaces")
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var path = String(rest[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        let authority = rest[..<slash]
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw ServerAddressError(url: url, problem: "its IPv6 address has no closing ]")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ServerAddressError(url: url, problem: "text follows its IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw ServerAddressError(url: url, problem: "it names no host") }
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw ServerAddressError(url: url, problem: "its port '\(portText)' is not a number from 1 to 65535")
            }
            port = number
        } else {
            port = scheme.defaultPort
        }
    }
}

/// `LFG_URL` is not a server address the host agent can use; says which part is wrong.
public struct ServerAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    public let url: String
    public let problem: String

    public var description: String { "LFG_URL '\(url)' cannot be used: \(problem); set it to the address `lfg serve` prints" }
}
