import APNs
internal import COpenSSL
import OpenSSLSupport

/// PEM reading and writing through memory BIOs, and OpenSSL error text.
enum OpenSSLKeyIO {
    static func readPrivateKey(_ pem: [UInt8]) throws(SigningError) -> OpaquePointer {
        try read(pem, what: "private key") { bio in PEM_read_bio_PrivateKey(bio, nil, nil, nil) }
    }

    static func readPublicKey(_ pem: [UInt8]) throws(SigningError) -> OpaquePointer {
        try read(pem, what: "public key") { bio in PEM_read_bio_PUBKEY(bio, nil, nil, nil) }
    }

    private static func read(_ pem: [UInt8], what: String, _ body: (OpaquePointer) -> OpaquePointer?)
        throws(SigningError) -> OpaquePointer
    {
        guard let key = OpenSSLSupport.readPEM(pem, body) else {
            throw SigningError("the \(what) is not valid PEM (\(OpenSSLSupport.lastError())); give the .p8 file as downloaded")
        }
        return key
    }

    static func writePEM(_ body: (OpaquePointer) -> Int32) throws(SigningError) -> String {
        guard let text = OpenSSLSupport.writePEM(body) else { throw failure("PEM_write") }
        return text
    }

    static func failure(_ operation: String) -> SigningError {
        SigningError("OpenSSL \(operation) failed: \(OpenSSLSupport.lastError())")
    }
}

/// Converts ECDSA signatures between DER (`ECDSA-Sig-Value`, what OpenSSL makes) and raw `R || S` (what JWS needs).
enum ECDSASignatureForm {
    static func raw(fromDER der: [UInt8]) throws(SigningError) -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var pointer = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &pointer, buffer.count)
        }
        guard let signature else { throw OpenSSLKeyIO.failure("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32) + BN_bn2binpad(s, buffer.baseAddress! + 32, 32)
        }
        guard written == 64 else { throw OpenSSLKeyIO.failure("BN_bn2binpad") }
        return raw
    }

    static func der(fromRaw raw: [UInt8]) throws(SigningError) -> [UInt8] {
        guard raw.count == 64 else { throw SigningError("an ES256 signature is 64 bytes, not \(raw.count)") }
        guard let signature = ECDSA_SIG_new() else { throw OpenSSLKeyIO.failure("ECDSA_SIG_new") }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSLKeyIO.failure("ECDSA_SIG_set0")
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw OpenSSLKeyIO.failure("i2d_ECDSA_SIG") }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var pointer = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &pointer)
        }
        return der
    }
}
