internal import COpenSSL
import OpenSSLSupport

/// AES-GCM on OpenSSL's EVP cipher API: ciphertext || 16-byte tag. AES-256 (HPKE aead_id 0x0002) for a
/// 32-byte key, AES-128 (0x0001, only for RFC 9180's printed vector) for a 16-byte one.
enum AESGCM {
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(SealError) -> [UInt8] {
        try withContext(key: key, nonce: nonce, encrypting: true) { context throws(SealError) in
            var length: Int32 = 0
            if !aad.isEmpty {
                guard EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1 else { throw failure("AAD") }
            }
            var output = [UInt8](repeating: 0, count: plaintext.count + HPKESuite.tagBytes)
            var written: Int32 = 0
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(context, &output, &written, plaintext, Int32(plaintext.count)) == 1 else {
                    throw failure("encrypt")
                }
            }
            var tail = [UInt8](repeating: 0, count: 16)
            guard EVP_EncryptFinal_ex(context, &tail, &length) == 1, Int(written) == plaintext.count else {
                throw failure("encrypt final")
            }
            var tag = [UInt8](repeating: 0, count: HPKESuite.tagBytes)
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tag.count), &tag) == 1 else {
                throw failure("get tag")
            }
            output.replaceSubrange(plaintext.count..., with: tag)
            return output
        }
    }

    /// Opens `ciphertext || tag`; ``SealError/authenticationFailed`` when the tag does not verify.
    static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(SealError) -> [UInt8] {
        guard sealed.count >= HPKESuite.tagBytes else { throw SealError.malformed("ciphertext shorter than its tag") }
        let ciphertext = Array(sealed.dropLast(HPKESuite.tagBytes))
        var tag = Array(sealed.suffix(HPKESuite.tagBytes))
        return try withContext(key: key, nonce: nonce, encrypting: false) { context throws(SealError) in
            var length: Int32 = 0
            if !aad.isEmpty {
                guard EVP_DecryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1 else { throw failure("AAD") }
            }
            var output = [UInt8](repeating: 0, count: ciphertext.count)
            var written: Int32 = 0
            if !ciphertext.isEmpty {
                guard EVP_DecryptUpdate(context, &output, &written, ciphertext, Int32(ciphertext.count)) == 1 else {
                    throw failure("decrypt")
                }
            }
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1 else {
                throw failure("set tag")
            }
            var tail = [UInt8](repeating: 0, count: 16)
            guard EVP_DecryptFinal_ex(context, &tail, &length) == 1 else {
                ERR_clear_error()  // a tag mismatch is an answer, not an OpenSSL fault to report later
                throw SealError.authenticationFailed
            }
            return output
        }
    }

    private static func withContext<T>(
        key: [UInt8], nonce: [UInt8], encrypting: Bool, _ body: (OpaquePointer) throws(SealError) -> T
    ) throws(SealError) -> T {
        guard key.count == 32 || key.count == 16, nonce.count == HPKESuite.nonceBytes else {
            throw SealError.crypto("AES-GCM needs a 32- or 16-byte key and a 12-byte nonce")
        }
        let cipher = key.count == 32 ? EVP_aes_256_gcm() : EVP_aes_128_gcm()
        guard let context = EVP_CIPHER_CTX_new() else { throw failure("context") }
        defer { EVP_CIPHER_CTX_free(context) }
        let initialized =
            encrypting
            ? EVP_EncryptInit_ex(context, cipher, nil, key, nonce)
            : EVP_DecryptInit_ex(context, cipher, nil, key, nonce)
        guard initialized == 1 else { throw failure("init") }
        return try body(context)
    }

    private static func failure(_ step: String) -> SealError {
        SealError.crypto("AES-GCM \(step): \(OpenSSLSupport.lastError())")
    }
}
