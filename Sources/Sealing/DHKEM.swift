/// DHKEM(P-256, HKDF-SHA256), kem_id 0x0010 (RFC 9180 4.1 and 7.1.3).
enum DHKEM {
    /// Encap(pkR): a fresh ephemeral key (or `ephemeral`, for the test vectors), its public point as `enc`,
    /// and the shared secret both sides derive.
    static func encap(
        to recipient: SealPublicKey, ephemeral: SealPrivateKey? = nil, version: [UInt8] = HPKESuite.version
    ) throws(SealError) -> (sharedSecret: [UInt8], enc: [UInt8]) {
        let senderKey: OpaquePointer
        if let ephemeral { senderKey = try P256.privateKey(scalar: ephemeral.scalar) } else { senderKey = try P256.generate() }
        defer { P256.free(senderKey) }
        let recipientKey = try P256.publicKey(x963: recipient.x963)
        defer { P256.free(recipientKey) }
        let dh = try P256.diffieHellman(privateKey: senderKey, peer: recipientKey)
        let enc = try P256.x963(senderKey)
        return (try extractAndExpand(dh: dh, kemContext: enc + recipient.x963, version: version), enc)
    }

    /// Decap(enc, skR): the shared secret from the sender's ephemeral point.
    static func decap(enc: [UInt8], recipient: SealPrivateKey, version: [UInt8] = HPKESuite.version)
        throws(SealError) -> [UInt8]
    {
        let senderKey = try P256.publicKey(x963: enc)
        defer { P256.free(senderKey) }
        let recipientKey = try P256.privateKey(scalar: recipient.scalar)
        defer { P256.free(recipientKey) }
        let dh = try P256.diffieHellman(privateKey: recipientKey, peer: senderKey)
        return try extractAndExpand(dh: dh, kemContext: enc + recipient.publicKey.x963, version: version)
    }

    /// ExtractAndExpand(dh, kem_context).
    static func extractAndExpand(dh: [UInt8], kemContext: [UInt8], version: [UInt8] = HPKESuite.version)
        throws(SealError) -> [UInt8]
    {
        let suite = HPKESuite.kemSuiteID
        let prk = try HPKESuite.labeledExtract(suiteID: suite, salt: [], label: "eae_prk", ikm: dh, version: version)
        return try HPKESuite.labeledExpand(
            suiteID: suite, prk: prk, label: "shared_secret", info: kemContext, length: HPKESuite.sharedSecretBytes,
            version: version)
    }

    /// DeriveKeyPair's scalar for P-256: candidates from LabeledExpand(dkp_prk, "candidate", counter), the
    /// first byte masked with 0xff (so unchanged), until one lies in [1, n-1].
    static func deriveScalar(ikm: [UInt8], version: [UInt8] = HPKESuite.version) throws(SealError) -> [UInt8] {
        let suite = HPKESuite.kemSuiteID
        let prk = try HPKESuite.labeledExtract(suiteID: suite, salt: [], label: "dkp_prk", ikm: ikm, version: version)
        for counter in 0...255 {
            var candidate = try HPKESuite.labeledExpand(
                suiteID: suite, prk: prk, label: "candidate", info: [UInt8(counter)], length: HPKESuite.privateKeyBytes,
                version: version)
            candidate[0] &= 0xFF
            if P256.isValidScalar(candidate) { return candidate }
        }
        throw SealError.crypto("DeriveKeyPair: no valid candidate in 256 tries")  // DeriveKeyPairError; odds ~2^-8192
    }
}
