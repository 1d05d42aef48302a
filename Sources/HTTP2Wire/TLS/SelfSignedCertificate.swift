internal import COpenSSL
import OpenSSLSupport

/// A throwaway certificate for `localhost` and `127.0.0.1`, made in memory (the stand-in's `--tls`).
///
/// It is its own CA (basicConstraints CA:TRUE), so a client trusts it by loading ``certificatePEM``
/// as its CA file.
public struct SelfSignedCertificate: Sendable {
    public let certificatePEM: String
    public let keyPEM: String

    /// Makes a P-256 key and a certificate valid for `days` days.
    public static func make(days: Int = 30) throws(WireError) -> SelfSignedCertificate {
        guard let key = OpenSSLSupport.generateP256() else { throw TLSContext.failure("EVP_PKEY_keygen") }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw TLSContext.failure("X509_new") }
        defer { X509_free(certificate) }
        _ = X509_set_version(certificate, 2)
        _ = ASN1_INTEGER_set(X509_get_serialNumber(certificate), Int(UInt16.random(in: 1...UInt16.max)))
        _ = X509_gmtime_adj(X509_getm_notBefore(certificate), -60)
        _ = X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400)
        _ = X509_set_pubkey(certificate, key)
        let name = X509_get_subject_name(certificate)
        _ = X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, "localhost", -1, -1, 0)
        _ = X509_set_issuer_name(certificate, name)
        for (nid, value) in [
            (NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1"), (NID_basic_constraints, "critical,CA:TRUE"),
            (NID_key_usage, "critical,digitalSignature,keyCertSign"),
        ] {
            guard let extensionValue = X509V3_EXT_conf_nid(nil, nil, nid, value) else {
                throw TLSContext.failure("X509V3_EXT_conf_nid")
            }
            _ = X509_add_ext(certificate, extensionValue, -1)
            X509_EXTENSION_free(extensionValue)
        }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw TLSContext.failure("X509_sign") }
        return SelfSignedCertificate(
            certificatePEM: try writePEM { PEM_write_bio_X509($0, certificate) },
            keyPEM: try writePEM { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) })
    }

    private static func writePEM(_ body: (OpaquePointer) -> Int32) throws(WireError) -> String {
        guard let text = OpenSSLSupport.writePEM(body) else { throw TLSContext.failure("PEM_write") }
        return text
    }
}
