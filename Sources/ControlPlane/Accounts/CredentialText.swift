import FleetCore

/// The one rule for every bearer credential LFG makes: `<prefix><id>.<secret>`, id 16 hex, secret 64 hex.
/// The id finds the record; the secret is never kept, only its SHA-256, and compared by that hash in
/// time independent of where it differs. A paired device's is `lfgd.`, an account's `lfga.`.
public struct CredentialText: Sendable, Hashable {
    /// The text before the id, ending in a dot.
    public let prefix: String

    /// A paired device's credential (issue 16).
    public static let device = CredentialText(prefix: "lfgd.")
    /// An account's bearer token (contract 8.4).
    public static let account = CredentialText(prefix: "lfga.")

    /// A new credential: its whole text (shown once), its id and the hash of its secret (kept).
    public func make() -> (text: String, id: String, secretHash: String) {
        let id = String(Authenticator.makeSecret().prefix(16))
        let secret = Authenticator.makeSecret()
        return (prefix + id + "." + secret, id, SHA256.hex(secret))
    }

    /// The id and secret in `text`, or nil when it is not shaped as this kind of credential.
    public func parse(_ text: String) -> (id: String, secret: String)? {
        guard text.hasPrefix(prefix) else { return nil }
        let parts = text.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, parts[1].count == 64 else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// Whether `secret` is the one whose hash is `secretHash`.
    public static func matches(_ secret: String, secretHash: String) -> Bool {
        Authenticator.isEqual(SHA256.hex(secret), secretHash)
    }

    /// What logs and listings may show of a credential: its prefix and id, never the secret.
    public func shown(id: String) -> String { prefix + id + ".…" }
}
