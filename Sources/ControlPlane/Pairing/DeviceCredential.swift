import FleetCore

/// A device credential's public id: 16 lower-case hex characters, shown in the dashboard and
/// `lfg pair list`, and named to revoke it.
public struct DeviceCredentialID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// One paired device's credential as stored: its id, the SHA-256 of its secret (never the secret),
/// the name the app gave, and when it was made and revoked.
public struct DeviceCredentialRecord: Hashable, Sendable, Codable {
    public var id: DeviceCredentialID
    /// SHA-256 of the secret part, hex.
    public var secretHash: String
    public var name: String
    public var deviceId: DeviceID?
    public var createdAt: UnixTime
    /// When the owner (or the device itself) revoked it; a revoked credential is kept, and refused.
    public var revokedAt: UnixTime?

    public init(
        id: DeviceCredentialID, secretHash: String, name: String, deviceId: DeviceID?, createdAt: UnixTime,
        revokedAt: UnixTime? = nil
    ) {
        self.id = id
        self.secretHash = secretHash
        self.name = name
        self.deviceId = deviceId
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// A device credential's text: `lfgd.<id>.<secret>`, by the one rule of ``CredentialText`` (shared with
/// accounts' tokens). The id finds the record; the secret is compared by its hash.
public enum DeviceCredentialText {
    /// A new credential: its text (given to the device once) and its record (kept).
    public static func make(name: String, deviceId: DeviceID?, now: UnixTime) -> (text: String, record: DeviceCredentialRecord) {
        let made = CredentialText.device.make()
        let record = DeviceCredentialRecord(
            id: DeviceCredentialID(made.id), secretHash: made.secretHash, name: name, deviceId: deviceId, createdAt: now)
        return (made.text, record)
    }

    /// The id and secret in `text`, or nil when it is not shaped as a device credential.
    public static func parse(_ text: String) -> (id: DeviceCredentialID, secret: String)? {
        CredentialText.device.parse(text).map { (DeviceCredentialID($0.id), $0.secret) }
    }

    /// Whether `secret` is the one `record` was made with.
    static func matches(_ secret: String, _ record: DeviceCredentialRecord) -> Bool {
        CredentialText.matches(secret, secretHash: record.secretHash)
    }
}
