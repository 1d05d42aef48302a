internal import COpenSSL
import OpenSSLSupport

/// P-256 keys and ECDH on OpenSSL 3.0's `EVP_PKEY`, without the deprecated `EC_KEY` calls.
///
/// Keys enter OpenSSL as DER with fixed P-256 headers: a SubjectPublicKeyInfo around the 65-byte
/// uncompressed point, and a SEC1 `ECPrivateKey` around the 32-byte scalar (OpenSSL computes the public
/// point itself). Every function returning an `OpaquePointer` hands ownership to the caller (`EVP_PKEY_free`).
enum P256 {
    /// SubjectPublicKeyInfo up to the point: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING }.
    private static let publicKeyPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]
    /// ECPrivateKey up to the scalar: SEQUENCE { INTEGER 1, OCTET STRING (32) ...
    private static let privateKeyPrefix: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20]
    /// ... then [0] { prime256v1 }.
    private static let privateKeySuffix: [UInt8] = [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    /// The group order n, big-endian: a scalar must lie in [1, n-1].
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// True when the 32 big-endian bytes are a valid private scalar: not zero, below n.
    static func isValidScalar(_ scalar: [UInt8]) -> Bool {
        scalar.count == 32 && scalar.contains { $0 != 0 } && scalar.lexicographicallyPrecedes(order)
    }

    /// The public key for a 65-byte uncompressed point; OpenSSL checks that the point is on the curve.
    static func publicKey(x963 point: [UInt8]) throws(SealError) -> OpaquePointer {
        guard point.count == 65, point[0] == 0x04 else {
            throw SealError.badPublicKey("want 65 bytes starting 0x04 (uncompressed SEC1), got \(point.count) bytes")
        }
        guard let key = decode(publicKeyPrefix + point, { d2i_PUBKEY(nil, &$0, $1) }) else {
            throw SealError.badPublicKey("not a point on P-256 (\(OpenSSLSupport.lastError()))")
        }
        return key
    }

    /// The key pair for a private scalar (big-endian, 32 bytes, in [1, n-1]).
    static func privateKey(scalar: [UInt8]) throws(SealError) -> OpaquePointer {
        guard isValidScalar(scalar) else { throw SealError.badPrivateKey("want a 32-byte scalar in [1, n-1]") }
        guard let key = decode(privateKeyPrefix + scalar + privateKeySuffix, { d2i_PrivateKey(EVP_PKEY_EC, nil, &$0, $1) })
        else { throw SealError.badPrivateKey("OpenSSL refused it (\(OpenSSLSupport.lastError()))") }
        return key
    }

    /// A fresh random key pair (the ephemeral key of one seal).
    static func generate() throws(SealError) -> OpaquePointer {
        guard let key = OpenSSLSupport.generateP256() else { throw SealError.crypto("P-256 keygen: \(OpenSSLSupport.lastError())") }
        return key
    }

    /// SerializePublicKey: the 65-byte uncompressed point.
    static func x963(_ key: OpaquePointer) throws(SealError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = EVP_PKEY_get1_encoded_public_key(key, &buffer)
        defer { CRYPTO_free(buffer, nil, 0) }
        guard let buffer, length == 65 else { throw SealError.crypto("encode public key: \(OpenSSLSupport.lastError())") }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    /// DH(sk, pk): the 32-byte x-coordinate of sk * pk.
    static func diffieHellman(privateKey: OpaquePointer, peer: OpaquePointer) throws(SealError) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new(privateKey, nil) else { throw SealError.crypto("ECDH context") }
        defer { EVP_PKEY_CTX_free(context) }
        var secret = [UInt8](repeating: 0, count: 32)
        var length = secret.count
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer) == 1,
            EVP_PKEY_derive(context, &secret, &length) == 1, length == 32
        else { throw SealError.crypto("ECDH: \(OpenSSLSupport.lastError())") }
        return secret
    }

    static func free(_ key: OpaquePointer) { EVP_PKEY_free(key) }

    private static func decode(
        _ der: [UInt8], _ body: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer in
            var pointer = buffer.baseAddress
            return body(&pointer, buffer.count)
        }
    }
}
