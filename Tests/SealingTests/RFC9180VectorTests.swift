import Testing

@testable import Sealing

/// RFC 9180 Appendix A.3.1: mode_base, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM.
///
/// Why AES-128: the RFC prints no P-256 vector with AES-256-GCM (our aead_id 2). This checks the final "HPKE-v1"
/// label and every step on the RFC's own vector, with the AEAD as a parameter; CFRGSuiteVectorTests checks our
/// exact suite (AES-256-GCM, Nk = 32) on the CFRG's published vector for it, and AES-256-GCM itself is checked
/// on the GCM spec's vector below.
/// Values copied from RFC 9180 A.3.1 (only those the checks use).
enum RFC9180A31 {
    static let info = hex("4f6465206f6e2061204772656369616e2055726e")
    static let ikmE = hex("4270e54ffd08d79d5928020af4686d8f6b7d35dbe470265f1f5aa22816ce860e")
    static let skEm = hex("4995788ef4b9d6132b249ce59a77281493eb39af373d236a1fe415cb0c2d7beb")
    static let ikmR = hex("668b37171f1072f3cf12ea8a236a45df23fc13b82af3609ad1e354f6ef817550")
    static let skRm = hex("f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2")
    static let pkRm = hex(
        "04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0"
    )
    static let enc = hex(
        "04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4"
    )
    static let sharedSecret = hex("c0d26aeab536609a572b07695d933b589dcf363ff9d93c93adea537aeabb8cb8")
    static let keyScheduleContext = hex(
        "00b88d4e6d91759e65e87c470e8b9141113e9ad5f0c8ceefc1e088c82e6980500798e486f9c9c09c9b5c753ac72d6005de254c607d1b534ed11d493ae1c1d9ac85"
    )
    static let key = hex("868c066ef58aae6dc589b6cfdd18f97e")
    static let baseNonce = hex("4e0bc5018beba4bf004cca59")
    /// "Beauty is truth, truth beauty"
    static let plaintext = hex("4265617574792069732074727574682c20747275746820626561757479")
    /// Encryption 0: aad "Count-0", sequence 0.
    static let aad0 = hex("436f756e742d30")
    static let ciphertext0 = hex("5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434")
    /// Encryption 1: aad "Count-1", sequence 1.
    static let aad1 = hex("436f756e742d31")
    static let nonce1 = hex("4e0bc5018beba4bf004cca58")
    static let ciphertext1 = hex("fa6f037b47fc21826b610172ca9637e82d6e5801eb31cbd3748271affd4ecb06646e0329cbdf3c3cd655b28e82")
}

@Suite("RFC 9180 A.3.1 vector: P-256, HKDF-SHA256, base mode (AEAD as a parameter)")
struct RFC9180VectorTests {
    typealias V = RFC9180A31

    @Test func deriveKeyPairGivesTheVectorKeys() throws {
        let recipient = try SealPrivateKey(derivedFrom: V.ikmR)
        let ephemeral = try SealPrivateKey(derivedFrom: V.ikmE)
        #expect(recipient.scalar == V.skRm)
        #expect(ephemeral.scalar == V.skEm)
        #expect(recipient.publicKey.x963 == V.pkRm)
        #expect(ephemeral.publicKey.x963 == V.enc)
    }

    @Test func encapAndDecapGiveTheSharedSecret() throws {
        let ephemeral = try SealPrivateKey(derivedFrom: V.ikmE)
        let (sharedSecret, enc) = try DHKEM.encap(to: SealPublicKey(x963: V.pkRm), ephemeral: ephemeral)
        #expect(enc == V.enc)
        #expect(sharedSecret == V.sharedSecret)
        #expect(try DHKEM.decap(enc: V.enc, recipient: SealPrivateKey(derivedFrom: V.ikmR)) == V.sharedSecret)
    }

    @Test func keyScheduleGivesKeyAndBaseNonce() throws {
        let context = try HPKEContext(sharedSecret: V.sharedSecret, info: V.info, aead: .aes128GCM)
        #expect(context.keyScheduleContext == V.keyScheduleContext)
        #expect(context.key == V.key)
        #expect(context.baseNonce == V.baseNonce)
        #expect(context.nonce(for: 1) == V.nonce1)
    }

    @Test func sealAndOpenMatchTheFirstTwoEncryptions() throws {
        var sender = try HPKEContext(sharedSecret: V.sharedSecret, info: V.info, aead: .aes128GCM)
        #expect(try sender.seal(V.plaintext, aad: V.aad0) == V.ciphertext0)
        #expect(try sender.seal(V.plaintext, aad: V.aad1) == V.ciphertext1)
        var receiver = try HPKEContext(sharedSecret: V.sharedSecret, info: V.info, aead: .aes128GCM)
        #expect(try receiver.open(V.ciphertext0, aad: V.aad0) == V.plaintext)
        #expect(try receiver.open(V.ciphertext1, aad: V.aad1) == V.plaintext)
    }

    @Test func singleShotSealWithTheVectorEphemeralIsEncThenTheVectorCiphertext() throws {
        let sealed = try AlertSealer.seal(
            V.plaintext, to: SealPublicKey(x963: V.pkRm), info: V.info, aad: V.aad0, aead: .aes128GCM,
            ephemeral: SealPrivateKey(derivedFrom: V.ikmE))
        #expect(sealed.box == V.enc + V.ciphertext0)
        let opener = ReferenceOpener(key: try SealPrivateKey(derivedFrom: V.ikmR))
        #expect(try opener.open(sealed, info: V.info, aad: V.aad0, aead: .aes128GCM) == V.plaintext)
    }

    @Test func ourSuiteDiffersOnlyInAeadIdAndKeySize() throws {
        #expect(HPKESuite.hpkeSuiteID(.aes256GCM) == Array("HPKE".utf8) + [0x00, 0x10, 0x00, 0x01, 0x00, 0x02])
        #expect(HPKESuite.hpkeSuiteID(.aes128GCM) == Array("HPKE".utf8) + [0x00, 0x10, 0x00, 0x01, 0x00, 0x01])
        let ours = try HPKEContext(sharedSecret: V.sharedSecret, info: V.info)
        #expect(ours.key.count == 32)
        #expect(ours.key != V.key && ours.baseNonce != V.baseNonce)
    }

    /// AES-256-GCM itself: Test Case 16 of McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)"
    /// (the revised spec's AES-256 case with AAD and a 96-bit IV).
    @Test func aes256GCMMatchesTheGCMSpecVector() throws {
        let key = hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let nonce = hex("cafebabefacedbaddecaf888")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = hex(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let expected = hex(
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                + "76fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AESGCM.seal(plaintext, key: key, nonce: nonce, aad: aad) == expected)
        #expect(try AESGCM.open(expected, key: key, nonce: nonce, aad: aad) == plaintext)
    }
}
