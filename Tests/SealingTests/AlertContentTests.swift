import Foundation
import Testing

@testable import Sealing

@Suite("What an alert's words become under privacy mode")
struct AlertContentTests {
    static let phone = try! SealPrivateKey(derivedFrom: Array("alert content phone".utf8))
    static let question = "Claude in api-server asks: run the migration on staging? (yes / no)"

    @Test func sealKeyGivesPlaceholderAndASealedTextThatOpens() throws {
        let content = AlertContent.make(text: Self.question, privacy: true, sealKey: Self.phone.publicKey)
        #expect(content.readable == AlertContent.placeholder)
        #expect(content.sealingFailure == nil)
        let sealed = try #require(content.sealed)
        #expect(String(decoding: try ReferenceOpener(key: Self.phone).open(sealed), as: UTF8.self) == Self.question)
    }

    @Test func sealKeySealsEvenWithPrivacyOff() {
        let content = AlertContent.make(text: Self.question, privacy: false, sealKey: Self.phone.publicKey)
        #expect(content.readable == AlertContent.placeholder)
        #expect(content.sealed != nil)
    }

    @Test func privacyWithoutKeyGivesOnlyThePlaceholder() {
        let content = AlertContent.make(text: Self.question, privacy: true, sealKey: nil)
        #expect(content == AlertContent(readable: AlertContent.placeholder, sealed: nil, sealingFailure: nil))
    }

    @Test func noPrivacyNoKeyKeepsTheText() {
        #expect(AlertContent.make(text: Self.question, privacy: false, sealKey: nil).readable == Self.question)
    }

    @Test func aSealingFailureGivesThePlaceholderNeverTheText() {
        let content = AlertContent.make(text: Self.question, privacy: false, sealKey: Self.phone.publicKey) {
            _, _ throws(SealError) in throw SealError.crypto("test failure")
        }
        #expect(content == AlertContent(readable: AlertContent.placeholder, sealed: nil, sealingFailure: .crypto("test failure")))
    }

    @Test func longTextIsShortenedBeforeSealingAndTheBoxFitsItsBudget() throws {
        let long = String(repeating: "Should I rewrite the retry loop with backoff? ", count: 200)  // 9,200 bytes
        let content = AlertContent.make(text: long, privacy: true, sealKey: Self.phone.publicKey)
        let sealed = try #require(content.sealed)
        let opened = String(decoding: try ReferenceOpener(key: Self.phone).open(sealed), as: UTF8.self)
        #expect(opened.utf8.count <= AlertContent.maximumSealedTextBytes)
        #expect(opened.hasSuffix(String(AlertContent.ellipsis)))
        #expect(long.hasPrefix(String(opened.dropLast())))
        #expect(sealed.base64.utf8.count <= AlertContent.maximumSealedBase64Bytes)
        #expect(!content.readable.contains("retry"))
    }

    @Test func aWholeAlertPushWithTheLongestBoxFitsFourKilobytes() throws {
        let longest = String(repeating: "é", count: 5000)  // 2-byte characters: the cut lands on a boundary
        let sealed = try #require(AlertContent.make(text: longest, privacy: true, sealKey: Self.phone.publicKey).sealed)
        let push: [String: Any] = [
            "aps": ["alert": ["title": "LFG", "body": AlertContent.placeholder], "mutable-content": 1, "sound": "default"],
            "lfgSeal": ["kid": sealed.keyID, "box": sealed.base64],
            "sid": String(repeating: "s", count: 200), "qid": String(repeating: "q", count: 64),
        ]
        let bytes = try JSONSerialization.data(withJSONObject: push)
        #expect(bytes.count <= 4096)
    }

    @Test func shortenedKeepsWholeCharactersWithinTheBudget() {
        #expect(AlertContent.shortened("short", toUTF8Bytes: 10) == "short")
        #expect(AlertContent.shortened("abcdefghij", toUTF8Bytes: 6) == "abc…")
        #expect(AlertContent.shortened("👍👍👍", toUTF8Bytes: 8) == "👍…")
    }
}
