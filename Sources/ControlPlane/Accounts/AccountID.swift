import FleetCore

/// An account's name: what `lfg accounts create NAME` gave, and the key of every row the account owns.
/// The install's own owner (the `LFG_AUTH_TOKEN` holder) is ``owner``: every row written before
/// accounts existed is the owner's.
public struct AccountID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The install owner's account: the auth token, the dashboard, the hooks on this machine.
    public static let owner = AccountID("owner")

    /// The longest name, in characters.
    public static let maximumLength = 40

    /// `text` as a new account's name, or an error saying what a name may be.
    public static func validated(_ text: String) throws(InputError) -> AccountID {
        let allowed = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
        guard !text.isEmpty, text.count <= maximumLength, allowed, text.first != "-", text.first != "_" else {
            throw InputError(
                field: "name",
                message:
                    "an account name is 1 to \(maximumLength) of a-z, 0-9, '-' and '_', starting with a letter or digit"
            )
        }
        guard text != owner.rawValue else {
            throw InputError(
                field: "name", message: "'\(owner)' is the install owner's own account; choose another name")
        }
        return AccountID(text)
    }
}

/// One account as stored: its name, its token's id and the SHA-256 of the token's secret (never the
/// token), and when it was made and revoked. A revoked account keeps its rows and is refused.
public struct AccountRecord: Hashable, Sendable, Codable {
    public var id: AccountID
    /// The id part of the token (``CredentialText/account``), which finds the record.
    public var tokenId: String
    /// SHA-256 of the token's secret part, hex.
    public var secretHash: String
    public var createdAt: UnixTime
    public var revokedAt: UnixTime?

    public init(id: AccountID, tokenId: String, secretHash: String, createdAt: UnixTime, revokedAt: UnixTime? = nil) {
        self.id = id
        self.tokenId = tokenId
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }

    /// A new account named `id`: its token's text (shown once, never kept) and its record.
    public static func make(_ id: AccountID, now: UnixTime) -> (token: String, record: AccountRecord) {
        let made = CredentialText.account.make()
        return (made.text, AccountRecord(id: id, tokenId: made.id, secretHash: made.secretHash, createdAt: now))
    }

    /// Whether `token` is this account's live token.
    public func accepts(_ token: String) -> Bool {
        guard !isRevoked, let (id, secret) = CredentialText.account.parse(token), id == tokenId else { return false }
        return CredentialText.matches(secret, secretHash: secretHash)
    }
}

/// One account as `GET /api/accounts` and `lfg accounts list` show it (never the token or its hash).
public struct AccountListing: Hashable, Sendable, Codable {
    public var name: AccountID
    /// The token as it may be shown: `lfga.<id>.…`.
    public var token: String
    public var createdAt: UnixTime
    public var revokedAt: UnixTime?

    public init(_ record: AccountRecord) {
        name = record.id
        token = CredentialText.account.shown(id: record.tokenId)
        createdAt = record.createdAt
        revokedAt = record.revokedAt
    }
}
