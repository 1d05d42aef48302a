internal import COpenSSL
import OpenSSLSupport

/// HKDF with SHA-256 (RFC 5869), the KDF of our HPKE suite (kdf_id 0x0001), on OpenSSL's HMAC.
///
/// Built from HMAC rather than OpenSSL's HKDF `EVP_KDF` because HPKE needs Extract and Expand as
/// separate steps with its own labelled inputs, which HMAC gives directly.
enum HKDFSHA256 {
    /// Nh: the output size of SHA-256, and of every Extract.
    static let hashBytes = 32

    /// HKDF-Extract(salt, ikm) = HMAC-SHA256(key: salt, message: ikm). An empty salt means Nh zero bytes.
    static func extract(salt: [UInt8], ikm: [UInt8]) throws(SealError) -> [UInt8] {
        try hmac(key: salt.isEmpty ? [UInt8](repeating: 0, count: hashBytes) : salt, message: ikm)
    }

    /// HKDF-Expand(prk, info, length): T(1) || T(2) || ... cut to `length` (at most 255 * Nh).
    static func expand(prk: [UInt8], info: [UInt8], length: Int) throws(SealError) -> [UInt8] {
        guard length <= 255 * hashBytes else { throw SealError.crypto("HKDF-Expand length \(length) is over 255 * 32") }
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = try hmac(key: prk, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// HMAC-SHA256 through `EVP_Q_mac` (OpenSSL 3.0's one-shot MAC; the old `HMAC_*` calls are deprecated).
    static func hmac(key: [UInt8], message: [UInt8]) throws(SealError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: hashBytes)
        var written = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                out.withUnsafeMutableBufferPointer { outBytes in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count,
                        messageBytes.baseAddress, messageBytes.count, outBytes.baseAddress, outBytes.count, &written)
                }
            }
        }
        guard result != nil, written == hashBytes else { throw SealError.crypto("HMAC-SHA256: \(OpenSSLSupport.lastError())") }
        return out
    }

    /// SHA-256 of `data` (for key ids).
    static func sha256(_ data: [UInt8]) throws(SealError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: hashBytes)
        var written: UInt32 = 0
        let ok = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &out, &written, EVP_sha256(), nil)
        }
        guard ok == 1 else { throw SealError.crypto("SHA-256: \(OpenSSLSupport.lastError())") }
        return out
    }
}
