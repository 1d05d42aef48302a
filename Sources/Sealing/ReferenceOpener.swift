/// Opens sealed alerts on Linux, as the phone's Notification Service Extension does with CryptoKit: the
/// proof in tests and the bench that what the server seals opens, and that tampering and stale keys show.
public struct ReferenceOpener: Sendable {
    public let key: SealPrivateKey

    public init(key: SealPrivateKey) {
        self.key = key
    }

    /// The alert text, or: ``SealError/staleKey(sealedTo:opener:)`` when sealed to another key id (nothing is
    /// tried), ``SealError/authenticationFailed`` when the box was changed, ``SealError/badPublicKey(_:)`` when
    /// enc is not a point.
    public func open(_ sealed: SealedAlert) throws(SealError) -> [UInt8] {
        try open(sealed, info: AlertSealer.info)
    }

    /// The same with another info, aad or AEAD: for the RFC vector and the tests that a changed info fails.
    package func open(_ sealed: SealedAlert, info: [UInt8], aad: [UInt8] = [], aead: HPKEAEAD = HPKESuite.aead)
        throws(SealError) -> [UInt8]
    {
        guard sealed.keyID == key.publicKey.keyID else {
            throw SealError.staleKey(sealedTo: sealed.keyID, opener: key.publicKey.keyID)
        }
        guard sealed.box.count >= HPKESuite.encBytes + HPKESuite.tagBytes else {
            throw SealError.malformed("box has \(sealed.box.count) bytes, fewer than enc (65) and a tag (16)")
        }
        let sharedSecret = try DHKEM.decap(enc: sealed.enc, recipient: key)
        var context = try HPKEContext(sharedSecret: sharedSecret, info: info, aead: aead)
        return try context.open(sealed.ciphertext, aad: aad)
    }
}
