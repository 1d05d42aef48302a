internal import COpenSSL

/// A P-256 private key that opens sealed alerts: the phone's key in tests, the bench and the reference opener.
/// The server never holds one; on the phone CryptoKit's `P256.KeyAgreement.PrivateKey` plays this part.
public struct SealPrivateKey: Sendable {
    /// The big-endian scalar, in [1, n-1].
    let scalar: [UInt8]
    public let publicKey: SealPublicKey

    init(scalar: [UInt8]) throws(SealError) {
        let key = try P256.privateKey(scalar: scalar)
        defer { P256.free(key) }
        self.scalar = scalar
        publicKey = try SealPublicKey(x963: P256.x963(key))
    }

    /// DeriveKeyPair(ikm) of DHKEM(P-256, HKDF-SHA256) (RFC 9180 7.1.3): the same ikm always gives the
    /// same key, which is how the RFC's test vectors fix their keys.
    public init(derivedFrom ikm: [UInt8]) throws(SealError) {
        try self.init(scalar: DHKEM.deriveScalar(ikm: ikm))
    }

    /// A new random key (from 32 bytes of OpenSSL's CSPRNG through DeriveKeyPair).
    public static func random() throws(SealError) -> SealPrivateKey {
        var ikm = [UInt8](repeating: 0, count: 32)
        guard RAND_bytes(&ikm, Int32(ikm.count)) == 1 else { throw SealError.crypto("RAND_bytes failed") }
        return try SealPrivateKey(derivedFrom: ikm)
    }
}
