/// `POST /api/pair`'s body: the one-time code from the link, and what the owner will see the device as.
public struct PairRequest: Hashable, Sendable, Codable {
    /// The pairing code from the link.
    public var code: String
    /// A name for the device in the dashboard's list (e.g. "Ana's iPhone"); at most ``maximumNameLength``.
    public var name: String
    /// The app's install id, if it has one (kept beside the credential, for the owner's list).
    public var deviceId: DeviceID?

    /// The longest device name accepted, in characters.
    public static let maximumNameLength = 100

    public init(code: String, name: String, deviceId: DeviceID? = nil) {
        self.code = code
        self.name = name
        self.deviceId = deviceId
    }
}

/// `POST /api/pair`'s answer: the device's own credential, shown once, sent afterwards as
/// `Authorization: Bearer <credential>`.
public struct PairAnswer: Hashable, Sendable, Codable {
    /// The secret bearer credential; the server keeps only its hash.
    public var credential: String
    /// The credential's public id, as the dashboard and `lfg pair list` show it (revocation names it).
    public var credentialId: String
    public var name: String
    public var deviceId: DeviceID?

    public init(credential: String, credentialId: String, name: String, deviceId: DeviceID?) {
        self.credential = credential
        self.credentialId = credentialId
        self.name = name
        self.deviceId = deviceId
    }
}
