#if canImport(Security) && canImport(CryptoKit)
import CryptoKit
import FleetApp
import FleetCore
import Foundation

/// The phone's ``SealKeyring`` (contract 8.3): a CryptoKit P-256 key-agreement key made on the phone, its
/// `rawRepresentation` kept as one generic-password Keychain item in an access group the app and its
/// Notification Service Extension share (the App Group), readable after the first unlock (alerts arrive on a
/// locked phone) and never synced off this device. The private key never leaves the Keychain but to open.
public final class KeychainSealKeyring: SealKeyring {
    let service: String
    let accessGroup: String?
    static let account = "seal-key"

    /// - Parameters:
    ///   - service: the Keychain item's service (one per app).
    ///   - accessGroup: the access group the app and the extension share (their App Group); nil: the app's own.
    public init(service: String, accessGroup: String?) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func currentKey() throws(SealKeyringError) -> PhoneSealKey? {
        try privateKey().map { Self.phoneKey(of: $0.publicKey) }
    }

    public func makeKey() throws(SealKeyringError) -> PhoneSealKey {
        let key = P256.KeyAgreement.PrivateKey(compactRepresentable: false)
        do { try item.write(key.rawRepresentation) } catch { throw SealKeyringError("the new sealing key: \(error)") }
        return Self.phoneKey(of: key.publicKey)
    }

    public func open(enc: Data, ciphertext: Data) throws(SealKeyringError) -> Data {
        guard let key = try privateKey() else { throw SealKeyringError("the phone holds no sealing key") }
        do {
            var recipient = try HPKE.Recipient(
                privateKey: key, ciphersuite: .P256_SHA256_AES_GCM_256, info: Data(SealedAlertFormat.info),
                encapsulatedKey: enc)
            return try recipient.open(ciphertext)
        } catch {
            throw SealKeyringError("the sealed alert did not open: \(error)")
        }
    }

    func privateKey() throws(SealKeyringError) -> P256.KeyAgreement.PrivateKey? {
        let raw: Data?
        do { raw = try item.read() } catch { throw SealKeyringError("the sealing key: \(error)") }
        guard let raw else { return nil }
        do {
            return try P256.KeyAgreement.PrivateKey(rawRepresentation: raw)
        } catch {
            throw SealKeyringError("the kept sealing key is not a P-256 key: \(error)")
        }
    }

    var item: KeychainItem { KeychainItem(service: service, account: Self.account, accessGroup: accessGroup) }

    /// The key as the app registers it: base64 of the 65-byte point, and its id as the server computes it.
    static func phoneKey(of key: P256.KeyAgreement.PublicKey) -> PhoneSealKey {
        PhoneSealKey(
            registration: key.x963Representation.base64EncodedString(),
            keyID: SealedAlertFormat.keyID(fromSHA256: SHA256.hash(data: key.x963Representation)))
    }
}
#endif
