import FleetCore

/// The one-time pairing codes the owner made that are still live. Pure: the caller passes the time.
///
/// Kept in memory only (codes live minutes; `lfg serve` prints a fresh one at every start). Codes are
/// kept by their hash; the newest is also kept whole, so the dashboard can show the code the terminal
/// printed.
public struct PairingCodeBook: Sendable {
    /// How long a pairing code works: defined here only.
    public static let codeLifetime: UnixTime = 10 * 60
    /// The most live codes kept; making one more forgets the oldest.
    public static let maximumLive = 100

    /// One code handed to the owner.
    public struct Code: Hashable, Sendable {
        public var code: String
        public var expiresAt: UnixTime
    }

    private var live: [String: UnixTime] = [:]
    private var newest: Code?

    public init() {}

    /// Keeps `code` (made by the caller from a random source) live for ``codeLifetime`` from `now`.
    public mutating func add(_ code: String, now: UnixTime) -> Code {
        forgetExpired(now)
        if live.count >= Self.maximumLive, let oldest = live.min(by: { $0.value < $1.value })?.key { live[oldest] = nil }
        let made = Code(code: code, expiresAt: now + Self.codeLifetime)
        live[SHA256.hex(code)] = made.expiresAt
        newest = made
        return made
    }

    /// Takes `code` if it is live: true once, false for a wrong, expired or already used code.
    public mutating func take(_ code: String, now: UnixTime) -> Bool {
        forgetExpired(now)
        let key = SHA256.hex(code)
        guard live[key] != nil else { return false }
        live[key] = nil
        if newest?.code == code { newest = nil }
        return true
    }

    /// Makes a taken code live again (its use could not be recorded), until its own expiry.
    public mutating func putBack(_ code: String, expiresAt: UnixTime) {
        live[SHA256.hex(code)] = expiresAt
    }

    /// When `code` expires, if it is live.
    public func expiry(of code: String) -> UnixTime? { live[SHA256.hex(code)] }

    /// The newest code, while it is live and unused.
    public func current(now: UnixTime) -> Code? {
        guard let newest, newest.expiresAt > now, live[SHA256.hex(newest.code)] != nil else { return nil }
        return newest
    }

    /// How many codes are live at `now`.
    public func liveCount(now: UnixTime) -> Int { live.values.filter { $0 > now }.count }

    private mutating func forgetExpired(_ now: UnixTime) {
        live = live.filter { $0.value > now }
    }
}
