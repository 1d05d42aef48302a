import APNs
import ControlPlane
import FleetCore
import Foundation
import Testing

@testable import Sealing

/// The control plane's sealing on HPKE: what a question alert shows Apple per device, and that the phone's
/// key opens the words (contract 8.3).
@Suite("HPKE alert sealing")
struct HPKEAlertSealingTests {
    static let phone = try! SealPrivateKey(derivedFrom: Array("sealing tests phone".utf8))
    static let words = AlertWords(
        title: "api-server", body: "Bash: psql -c 'DROP TABLE users'", options: ["Allow", "Deny"])
    let sealing = HPKEAlertSealing()

    func key(_ key: SealPrivateKey = Self.phone) throws -> DeviceSealKey {
        try sealing.sealKey(base64: key.publicKey.base64)
    }

    @Test("With a key the alert is sealed to it, and the phone's key opens the words")
    func sealsToTheKey() throws {
        let result = sealing.disclosure(of: Self.words, isPrivate: true, sealKey: try key())
        guard case .sealed(let keyID, let box) = result.disclosure else {
            Issue.record("not sealed: \(result)")
            return
        }
        #expect(keyID == Self.phone.publicKey.keyID)
        let opened = try ReferenceOpener(key: Self.phone).open(try SealedAlert(keyID: keyID, base64: box))
        #expect(AlertWords(sealedBytes: opened) == Self.words)
    }

    @Test("A key seals even with privacy off: a device that registers one wants its alerts sealed")
    func keyWithoutPrivacy() throws {
        let result = sealing.disclosure(of: Self.words, isPrivate: false, sealKey: try key())
        #expect(!result.disclosure.showsWords)
    }

    @Test("Privacy without a key: the placeholder alone; neither: the words")
    func withoutKey() {
        #expect(sealing.disclosure(of: Self.words, isPrivate: true, sealKey: nil).disclosure == .placeholder)
        #expect(sealing.disclosure(of: Self.words, isPrivate: false, sealKey: nil).disclosure == .clear)
    }

    @Test("A sealing failure gives the placeholder and says why, never the words")
    func failureIsPlaceholder() throws {
        let failing = HPKEAlertSealing { _, _ throws(SealError) in throw SealError.crypto("EVP failed") }
        let result = failing.disclosure(of: Self.words, isPrivate: false, sealKey: try key())
        #expect(result.disclosure == .placeholder)
        #expect(result.failure?.contains("EVP failed") == true)
    }

    @Test("An alert sealed to a replaced key opens on no key the phone holds: stale, never the text")
    func staleKey() throws {
        let result = sealing.disclosure(of: Self.words, isPrivate: true, sealKey: try key())
        guard case .sealed(let keyID, let box) = result.disclosure else {
            Issue.record("not sealed")
            return
        }
        let newPhoneKey = try SealPrivateKey(derivedFrom: Array("rotated".utf8))
        #expect(throws: SealError.staleKey(sealedTo: keyID, opener: newPhoneKey.publicKey.keyID)) {
            try ReferenceOpener(key: newPhoneKey).open(try SealedAlert(keyID: keyID, base64: box))
        }
    }

    @Test("A sealed question alert for the longest words fits APNs' 4 KB, and carries no words in the clear")
    func longQuestionFits() throws {
        let long = AlertWords(
            title: String(repeating: "Ťitle ", count: 300), body: String(repeating: "Shall I \"run\" it? 🚀 ", count: 800),
            options: (1...30).map { "Choice \($0) " + String(repeating: "y", count: 300) })
        let question = Question(
            id: QuestionID(String(repeating: "q", count: 64)), sid: SessionID(String(repeating: "s", count: 200)),
            kind: .choice, text: long.body, options: long.options, createdAt: 0, expiresAt: nil, canAlwaysAllow: true)
        let disclosure = sealing.disclosure(of: long.fitted(), isPrivate: true, sealKey: try key()).disclosure
        let request = try PushRequest.questionAlert(
            question, title: long.title, disclosure: disclosure, token: try DeviceToken(hex: String(repeating: "a", count: 64)),
            environment: .sandbox, bundleID: BundleID("com.example.lfg"))
        #expect(request.payload.bytes.count <= 4096)
        let body = String(decoding: request.payload.bytes, as: UTF8.self)
        #expect(!body.contains("Choice 1") && !body.contains("Shall I") && !body.contains("Ťitle"))
        #expect(body.contains(AlertWords.placeholder))
    }
}
