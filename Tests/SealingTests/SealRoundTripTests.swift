import Testing

@testable import Sealing

/// Seal on the server, open with the reference opener; every kind of damage is caught, and none opens.
@Suite("Sealing round trip, tampering, wrong and stale keys")
struct SealRoundTripTests {
    /// Fixed keys, so every run seals with the same recipient (the ephemeral key is fresh each time).
    static let phone = try! SealPrivateKey(derivedFrom: Array("phone key for tests".utf8))
    static let otherPhone = try! SealPrivateKey(derivedFrom: Array("another phone".utf8))
    static let text = Array("Claude in api-server asks: run the migration on staging? (yes / no)".utf8)

    @Test func roundTripOpensTheText() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        #expect(sealed.box.count == 65 + Self.text.count + 16)
        #expect(sealed.keyID == Self.phone.publicKey.keyID)
        #expect(try ReferenceOpener(key: Self.phone).open(sealed) == Self.text)
    }

    @Test func theWireFormRoundTrips() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        let received = try SealedAlert(keyID: sealed.keyID, base64: sealed.base64)
        #expect(try ReferenceOpener(key: Self.phone).open(received) == Self.text)
    }

    @Test func twoSealsOfTheSameTextDiffer() throws {
        let first = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        let second = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        #expect(first.box != second.box)
    }

    @Test(arguments: [0, 64, 65, 65 + 10, 65 + 67 + 15])  // in enc, at its end, in ct, in the tag
    func aFlippedBitIsDetected(at index: Int) throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        var box = sealed.box
        box[index] ^= 0x01
        #expect(throws: SealError.self) { try ReferenceOpener(key: Self.phone).open(SealedAlert(keyID: sealed.keyID, box: box)) }
    }

    @Test func aFlippedBitInEncIsAnAuthenticationFailureWhenStillOnTheCurve() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        // Substituting a different valid point for enc (another key's public point) is the strongest enc tampering.
        let box = Self.otherPhone.publicKey.x963 + sealed.box.dropFirst(65)
        #expect(throws: SealError.authenticationFailed) {
            try ReferenceOpener(key: Self.phone).open(SealedAlert(keyID: sealed.keyID, box: box))
        }
    }

    @Test func aFlippedTagBitIsAnAuthenticationFailure() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        var box = sealed.box
        box[box.count - 1] ^= 0x80
        #expect(throws: SealError.authenticationFailed) {
            try ReferenceOpener(key: Self.phone).open(SealedAlert(keyID: sealed.keyID, box: box))
        }
    }

    @Test func theWrongKeyWithTheRightIdFailsAuthentication() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        let forged = SealedAlert(keyID: Self.otherPhone.publicKey.keyID, box: sealed.box)
        #expect(throws: SealError.authenticationFailed) { try ReferenceOpener(key: Self.otherPhone).open(forged) }
    }

    @Test func aStaleKeyIsReportedAndNotOpened() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.otherPhone.publicKey)
        #expect(throws: SealError.staleKey(sealedTo: Self.otherPhone.publicKey.keyID, opener: Self.phone.publicKey.keyID)) {
            try ReferenceOpener(key: Self.phone).open(sealed)
        }
    }

    @Test func anotherInfoDoesNotOpen() throws {
        let sealed = try AlertSealer.seal(Self.text, to: Self.phone.publicKey)
        #expect(throws: SealError.authenticationFailed) {
            try ReferenceOpener(key: Self.phone).open(sealed, info: Array("lfg alert v2".utf8))
        }
    }

    @Test func keyIdIsTheFirstEightBytesOfSHA256AsHex() throws {
        let keyID = Self.phone.publicKey.keyID
        #expect(keyID.count == 16)
        #expect(keyID == (try HKDFSHA256.sha256(Self.phone.publicKey.x963)).prefix(8).map { String(format2: $0) }.joined())
    }

    @Test func badPublicKeysAreRefusedWithAReason() throws {
        #expect(throws: SealError.self) { try SealPublicKey(x963: [UInt8](repeating: 4, count: 64)) }
        var offCurve = Self.phone.publicKey.x963
        offCurve[64] ^= 0x01
        #expect(throws: SealError.self) { try SealPublicKey(x963: offCurve) }
        #expect(throws: SealError.badPublicKey("sealKey is not base64")) { try SealPublicKey(base64: "not base64!") }
        #expect(try SealPublicKey(base64: Self.phone.publicKey.base64) == Self.phone.publicKey)
    }

    @Test func shortOrNonBase64BoxesAreMalformed() {
        #expect(throws: SealError.self) { try SealedAlert(keyID: "00", base64: "%%%") }
        #expect(throws: SealError.self) { try SealedAlert(keyID: "00", base64: "AAAA") }
    }

    @Test func randomKeysDiffer() throws {
        #expect(try SealPrivateKey.random().publicKey != SealPrivateKey.random().publicKey)
    }
}

extension String {
    fileprivate init(format2 byte: UInt8) {
        let digits = String(byte, radix: 16)
        self = byte < 0x10 ? "0" + digits : digits
    }
}
