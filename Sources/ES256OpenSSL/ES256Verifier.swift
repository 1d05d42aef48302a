import APNs
internal import COpenSSL

/// Checks ES256 signatures against a P-256 public key: how the APNs stand-in verifies provider tokens.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is immutable after loading; each check uses its own context.
public final class ES256Verifier: @unchecked Sendable {
    let key: OpaquePointer

    /// Loads a PEM public key (`BEGIN PUBLIC KEY`) or derives it from a PEM private key.
    public init(publicKeyPEM pem: [UInt8]) throws(SigningError) {
        if let key = try? OpenSSLKeyIO.readPublicKey(pem) {
            self.key = key
        } else {
            key = try OpenSSLKeyIO.readPrivateKey(pem)
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw SigningError("the key is not an EC P-256 key")
        }
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` (raw 64-byte `R || S`) is this key's ES256 signature over `message`.
    public func isValid(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignatureForm.der(fromRaw: signature), let context = EVP_MD_CTX_new() else {
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, der, der.count, message, message.count) == 1
    }

    /// Whether `token` is an ES256 JWT signed by this key; returns its claims when it is.
    public func verify(providerToken token: some StringProtocol) -> ProviderTokenClaims? {
        guard let parsed = ParsedProviderToken(token), parsed.algorithm == "ES256",
            isValid(signature: parsed.signature, message: parsed.signingInput)
        else { return nil }
        return parsed.claims
    }
}
