internal import COpenSSL

/// The OpenSSL chores both the JWT signer and the TLS layer need: error text, PEM through memory
/// BIOs, P-256 key generation. `package` access: shared inside LFG, never public API.
package enum OpenSSLSupport {
    /// The oldest queued OpenSSL error as text (and clears it), or "no detail".
    package static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "no detail" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Runs `read` on a memory BIO over `pem`; nil when it returns nil.
    ///
    /// `BIO_new_mem_buf` does not copy, so the BIO lives and dies inside `withUnsafeBytes`.
    package static func readPEM(_ pem: [UInt8], _ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }

    /// What `write` puts into a memory BIO, as text; nil when it fails.
    package static func writePEM(_ write: (OpaquePointer) -> Int32) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let read = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(max(0, Int(read))), as: UTF8.self)
    }

    /// A fresh random P-256 `EVP_PKEY` the caller owns (free with `EVP_PKEY_free`); nil on failure.
    package static func generateP256() -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1
        else { return nil }
        return key
    }
}
