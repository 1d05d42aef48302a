extension String {
    /// `lowercased()`, without building a new string when there is nothing to change (no upper-case
    /// ASCII letter and no non-ASCII byte): header names are compared case-insensitively (RFC 9110).
    ///
    /// Why: every request's header names go through here, and Unicode case mapping of each one, most
    /// already lower-case, showed in the server's profile under ingest load (bench/ingest.sh).
    public var lowercasedHTTPFieldName: String { isLowercasedHTTPFieldName ? self : lowercased() }

    /// Whether ``lowercasedHTTPFieldName`` is this string itself: no upper-case ASCII letter, no non-ASCII byte.
    public var isLowercasedHTTPFieldName: Bool {
        !utf8.contains { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 }
    }

    /// `uppercased()`, without building a new string when there is nothing to change (an HTTP method).
    public var uppercasedHTTPMethod: String {
        utf8.contains { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 >= 0x80 } ? uppercased() : self
    }
}
