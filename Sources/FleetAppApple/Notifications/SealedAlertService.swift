#if canImport(UserNotifications) && canImport(CryptoKit)
import CryptoKit
import FleetApp
import FleetCore
import Foundation
import UserNotifications

/// Privacy mode's Notification Service Extension (contract 8.3): opens a sealed alert with the phone's own key
/// and shows its words. The app's extension target subclasses it and says where the key is kept
/// (``sealKeyRawRepresentation()``: the keychain group it shares with the app).
///
/// Only the CryptoKit call lives here; what to show is ``SealedAlertReader`` (FleetApp, tested on Linux). A box
/// that does not open (a replaced key, damage) leaves the placeholder the push carries: never anything else.
open class SealedAlertService: UNNotificationServiceExtension {
    /// The phone's sealing key as `P256.KeyAgreement.PrivateKey.rawRepresentation`; nil when it has none.
    open func sealKeyRawRepresentation() -> Data? { nil }

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent,
            let raw = sealKeyRawRepresentation(), let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw)
        else {
            contentHandler(request.content)
            return
        }
        var payload: [String: Any] = [:]
        for (name, value) in content.userInfo { if let name = name as? String { payload[name] = value } }
        let reader = SealedAlertReader(keyID: SealKeyIdentity.keyID(of: key.publicKey))
        if case .opened(let words) = reader.read(payload, open: { enc, ciphertext in
            try Self.open(enc, ciphertext, with: key)
        }) {
            let shown = OpenedAlert(words)
            content.title = shown.title
            content.body = shown.body
        }
        contentHandler(content)
    }

    /// HPKE base mode, single shot, as the server sealed it (docs/sealed-alerts.md).
    static func open(_ enc: Data, _ ciphertext: Data, with key: P256.KeyAgreement.PrivateKey) throws -> Data {
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: .P256_SHA256_AES_GCM_256, info: Data(SealedAlertFormat.info),
            encapsulatedKey: enc)
        return try recipient.open(ciphertext)
    }
}

/// The app's side of the key: its id and the `sealKey` text it registers (`PUT /api/devices/{id}`).
public enum SealKeyIdentity {
    /// ``SealedAlertFormat/keyID(fromSHA256:)`` of the key's 65-byte point, as the server computes it.
    public static func keyID(of key: P256.KeyAgreement.PublicKey) -> String {
        SealedAlertFormat.keyID(fromSHA256: SHA256.hash(data: key.x963Representation))
    }

    /// base64 of the 65-byte point: the `sealKey` the app registers.
    public static func registration(of key: P256.KeyAgreement.PublicKey) -> String {
        key.x963Representation.base64EncodedString()
    }
}
#endif
