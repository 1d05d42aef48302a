import APNs
internal import COpenSSL
import OpenSSLSupport

/// A P-256 private key held by OpenSSL's libcrypto, signing provider tokens with `EVP_DigestSign`.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never mutated after loading, and OpenSSL allows one
/// key to sign from several threads at once (each signature gets its own `EVP_MD_CTX`).
public final class OpenSSLSigningKey: SigningKey, @unchecked Sendable {
    let key: OpaquePointer

    /// Loads a PEM private key: the PKCS#8 `.p8` Apple issues, or a SEC1 EC key; it must be P-256.
    public init(pem: [UInt8]) throws(SigningError) {
        key = try OpenSSLKeyIO.readPrivateKey(pem)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw SigningError("the key is not an EC P-256 key; APNs keys (.p8) are P-256, download it again")
        }
    }

    private init(owning key: OpaquePointer) { self.key = key }

    deinit { EVP_PKEY_free(key) }

    /// A fresh random P-256 key (throwaway keys for tests and `lfg bench apns`).
    public static func generateP256() throws(SigningError) -> OpenSSLSigningKey {
        guard let key = OpenSSLSupport.generateP256() else { throw OpenSSLKeyIO.failure("EVP_PKEY_keygen") }
        return OpenSSLSigningKey(owning: key)
    }

    /// The key as PKCS#8 PEM (`BEGIN PRIVATE KEY`), the `.p8` format. Handle as a secret.
    public func privateKeyPEM() throws(SigningError) -> String {
        try OpenSSLKeyIO.writePEM { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
    }

    /// The public half as PEM (`BEGIN PUBLIC KEY`).
    public func publicKeyPEM() throws(SigningError) -> String {
        try OpenSSLKeyIO.writePEM { bio in PEM_write_bio_PUBKEY(bio, key) }
    }

    /// A verifier for signatures made by this key.
    public func verifier() throws(SigningError) -> ES256Verifier {
        try ES256Verifier(publicKeyPEM: Array(publicKeyPEM().utf8))
    }

    public func signES256(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLKeyIO.failure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw OpenSSLKeyIO.failure("EVP_DigestSignInit")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw OpenSSLKeyIO.failure("EVP_DigestSign")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw OpenSSLKeyIO.failure("EVP_DigestSign")
        }
        return try ECDSASignatureForm.raw(fromDER: Array(der.prefix(length)))
    }
}
