import Foundation

/// The phone's own sealing key pair (contract 8.3): made on the phone, its private half never leaves it (the
/// Keychain, shared with the Notification Service Extension, on the phone; memory in tests and the demo).
/// The app registers the public half as `sealKey`; the extension opens each sealed alert with the private half.
///
/// Synchronous, like the Keychain: the engine asks for the key when it builds a device registration.
public protocol SealKeyring: AnyObject, Sendable {
    /// The key the phone holds now; nil when it has none (never made, or lost with the Keychain).
    func currentKey() throws(SealKeyringError) -> PhoneSealKey?
    /// Makes a new key pair and keeps it in place of the current one (a rotation): from then on alerts sealed
    /// to the old key show their placeholder, never their words.
    func makeKey() throws(SealKeyringError) -> PhoneSealKey
    /// HPKE base-mode open (RFC 9180; DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM) with the current
    /// key, ``SealedAlertFormat/info`` and empty aad: `enc` is the sender's 65-byte point, `ciphertext`
    /// ends with the tag. Throws when there is no key or the box does not open.
    func open(enc: Data, ciphertext: Data) throws(SealKeyringError) -> Data
}

extension SealKeyring {
    /// The key to register: the current one, or a new one when the phone has none.
    public func keyForRegistration() throws(SealKeyringError) -> PhoneSealKey {
        if let key = try currentKey() { return key }
        return try makeKey()
    }

    /// The extension's reader for the current key; nil when the phone has no key (every alert keeps its
    /// placeholder).
    public func reader() throws(SealKeyringError) -> SealedAlertReader? {
        try currentKey().map { SealedAlertReader(keyID: $0.keyID) }
    }
}

/// The public half of the phone's key as the app uses it.
public struct PhoneSealKey: Hashable, Sendable {
    /// base64 of the key's 65-byte uncompressed point (CryptoKit's `x963Representation`): the `sealKey` the
    /// app registers on `PUT /api/devices/{id}`.
    public var registration: String
    /// ``SealedAlertFormat/keyID(fromSHA256:)`` of the point: the `kid` the server's sealed alerts name, and
    /// the `sealKeyId` that `GET /api/devices/{id}` reports.
    public var keyID: String

    public init(registration: String, keyID: String) {
        self.registration = registration
        self.keyID = keyID
    }
}

/// The keyring failed (a Keychain status, no key, a box that did not open), in words.
public struct SealKeyringError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
