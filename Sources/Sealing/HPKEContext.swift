/// The sender's or recipient's encryption context after the base-mode key schedule (RFC 9180 5.1, 5.2):
/// the AEAD key, the base nonce and the sequence number that makes each message's nonce unique.
struct HPKEContext {
    let key: [UInt8]
    let baseNonce: [UInt8]
    private(set) var sequence: UInt64 = 0

    /// key_schedule_context, kept for the test vectors.
    let keyScheduleContext: [UInt8]

    /// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "").
    init(
        sharedSecret: [UInt8], info: [UInt8], aead: HPKEAEAD = HPKESuite.aead, version: [UInt8] = HPKESuite.version
    ) throws(SealError) {
        let suite = HPKESuite.hpkeSuiteID(aead)
        let pskIDHash = try HPKESuite.labeledExtract(
            suiteID: suite, salt: [], label: "psk_id_hash", ikm: [], version: version)
        let infoHash = try HPKESuite.labeledExtract(suiteID: suite, salt: [], label: "info_hash", ikm: info, version: version)
        let context = [HPKESuite.modeBase] + pskIDHash + infoHash
        let secret = try HPKESuite.labeledExtract(
            suiteID: suite, salt: sharedSecret, label: "secret", ikm: [], version: version)
        key = try HPKESuite.labeledExpand(
            suiteID: suite, prk: secret, label: "key", info: context, length: aead.keyBytes, version: version)
        baseNonce = try HPKESuite.labeledExpand(
            suiteID: suite, prk: secret, label: "base_nonce", info: context, length: HPKESuite.nonceBytes,
            version: version)
        keyScheduleContext = context
    }

    /// ComputeNonce(seq) = base_nonce XOR I2OSP(seq, Nn).
    func nonce(for sequence: UInt64) -> [UInt8] {
        var nonce = baseNonce
        for index in 0..<8 {
            nonce[nonce.count - 1 - index] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(index)))
        }
        return nonce
    }

    /// ContextS.Seal(aad, pt): seals with the current sequence number, then moves it on.
    mutating func seal(_ plaintext: [UInt8], aad: [UInt8] = []) throws(SealError) -> [UInt8] {
        let sealed = try AESGCM.seal(plaintext, key: key, nonce: nonce(for: sequence), aad: aad)
        sequence += 1
        return sealed
    }

    /// ContextR.Open(aad, ct): opens with the current sequence number, then moves it on.
    mutating func open(_ ciphertext: [UInt8], aad: [UInt8] = []) throws(SealError) -> [UInt8] {
        let opened = try AESGCM.open(ciphertext, key: key, nonce: nonce(for: sequence), aad: aad)
        sequence += 1
        return opened
    }
}
