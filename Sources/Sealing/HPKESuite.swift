/// The one HPKE (RFC 9180) suite LFG seals alerts with, and its labelled HKDF steps (RFC 9180 section 4).
///
/// DHKEM(P-256, HKDF-SHA256) + HKDF-SHA256 + AES-256-GCM, base mode: what CryptoKit calls
/// `HPKE.Ciphersuite.P256_SHA256_AES_GCM_256`, so the phone opens it with `HPKE.Recipient` in a few lines.
enum HPKESuite {
    static let kemID: UInt16 = 0x0010
    static let kdfID: UInt16 = 0x0001
    /// aead_id 0x0002.
    static let aead = HPKEAEAD.aes256GCM
    /// mode_base: no PSK, no sender authentication.
    static let modeBase: UInt8 = 0x00

    /// Nn, Nt of AES-GCM.
    static let nonceBytes = 12
    static let tagBytes = 16
    /// Nsecret of the KEM, Nenc = Npk (uncompressed point), Nsk.
    static let sharedSecretBytes = 32
    static let encBytes = 65
    static let privateKeyBytes = 32

    /// suite_id for the KEM's own derivations: "KEM" || I2OSP(kem_id, 2).
    static let kemSuiteID: [UInt8] = Array("KEM".utf8) + bigEndian(kemID)
    /// suite_id for the key schedule: "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2).
    static func hpkeSuiteID(_ aead: HPKEAEAD) -> [UInt8] {
        Array("HPKE".utf8) + bigEndian(kemID) + bigEndian(kdfID) + bigEndian(aead.id)
    }

    /// RFC 9180's version label. A parameter of the labelled steps below only so a test can check the CFRG's
    /// published vector for this exact suite, which was generated under the draft's label ("HPKE-07").
    static let version: [UInt8] = Array("HPKE-v1".utf8)

    /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
    static func labeledExtract(
        suiteID: [UInt8], salt: [UInt8], label: String, ikm: [UInt8], version: [UInt8] = version
    ) throws(SealError) -> [UInt8] {
        try HKDFSHA256.extract(salt: salt, ikm: version + suiteID + Array(label.utf8) + ikm)
    }

    /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
    static func labeledExpand(
        suiteID: [UInt8], prk: [UInt8], label: String, info: [UInt8], length: Int, version: [UInt8] = version
    ) throws(SealError) -> [UInt8] {
        let labeledInfo = bigEndian(UInt16(length)) + version + suiteID + Array(label.utf8) + info
        return try HKDFSHA256.expand(prk: prk, info: labeledInfo, length: length)
    }

    /// I2OSP(value, 2).
    static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}
