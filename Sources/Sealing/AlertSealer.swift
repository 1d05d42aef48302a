import FleetCore

/// Seals an alert's text to a device's ``SealPublicKey``: HPKE base mode, single shot (RFC 9180 6.1),
/// with ``info`` binding every box to LFG alerts of this format version.
///
/// On the phone the same box opens with CryptoKit:
/// `HPKE.Recipient(privateKey: key, ciphersuite: .P256_SHA256_AES_GCM_256, info: Data("lfg alert v1".utf8),
/// encapsulatedKey: box.prefix(65))`, then `recipient.open(box.dropFirst(65))`.
public enum AlertSealer {
    /// HPKE's `info`: names the purpose and format version, so a box made for anything else never opens as
    /// an alert. A new format takes a new version ("lfg alert v2"), never a silent change.
    public static let info: [UInt8] = SealedAlertFormat.info

    /// Seals `plaintext` (the alert text as UTF-8) to `key` with a fresh ephemeral key.
    public static func seal(_ plaintext: [UInt8], to key: SealPublicKey) throws(SealError) -> SealedAlert {
        try seal(plaintext, to: key, ephemeral: nil)
    }

    /// The same with a fixed ephemeral key: only for the RFC test vectors and deterministic tests.
    package static func seal(
        _ plaintext: [UInt8], to key: SealPublicKey, info: [UInt8] = info, aad: [UInt8] = [],
        aead: HPKEAEAD = HPKESuite.aead, ephemeral: SealPrivateKey?
    ) throws(SealError) -> SealedAlert {
        let (sharedSecret, enc) = try DHKEM.encap(to: key, ephemeral: ephemeral)
        var context = try HPKEContext(sharedSecret: sharedSecret, info: info, aead: aead)
        return SealedAlert(keyID: key.keyID, box: enc + (try context.seal(plaintext, aad: aad)))
    }
}
