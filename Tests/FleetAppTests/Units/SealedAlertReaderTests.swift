import FleetApp
import FleetCore
import Foundation
import Sealing
import Testing

/// The Notification Service Extension's logic (contract 8.3): a sealed alert from the server's sealing opens to
/// its words on the phone's key; every other case shows the placeholder.
@Suite("Sealed alert reader")
struct SealedAlertReaderTests {
    static let phone = try! SealPrivateKey(derivedFrom: Array("reader tests phone".utf8))
    static let words = AlertWords(title: "api-server", body: "Deploy to staging?", options: ["Yes", "No"])

    /// The reference opener standing in for CryptoKit's `HPKE.Recipient`.
    static func open(with key: SealPrivateKey) -> (Data, Data) throws -> Data {
        { enc, ciphertext in
            Data(try ReferenceOpener(key: key).open(SealedAlert(keyID: key.publicKey.keyID, box: Array(enc + ciphertext))))
        }
    }

    static func sealedPayload(to key: SealPublicKey = phone.publicKey) throws -> [String: Any] {
        let sealed = try AlertSealer.seal(words.sealedBytes, to: key)
        return ["aps": ["alert": ["body": AlertWords.placeholder]], "lfgSeal": ["kid": sealed.keyID, "box": sealed.base64]]
    }

    let reader = SealedAlertReader(keyID: Self.phone.publicKey.keyID)

    @Test("A sealed alert opens to its title, text and options")
    func opens() throws {
        #expect(reader.read(try Self.sealedPayload(), open: Self.open(with: Self.phone)) == .opened(Self.words))
    }

    @Test("An alert without a seal is left as delivered")
    func unsealed() {
        #expect(reader.read(["aps": ["alert": ["body": "hi"]]], open: Self.open(with: Self.phone)) == .unsealed)
    }

    @Test("An alert sealed to the key the phone replaced shows the placeholder, and is not even tried")
    func staleKey() throws {
        let old = try SealPrivateKey(derivedFrom: Array("the phone's old key".utf8))
        let payload = try Self.sealedPayload(to: old.publicKey)
        #expect(reader.read(payload, open: { _, _ in
            Issue.record("a stale box was opened")
            return Data()
        }) == .placeholder(.staleKey))
    }

    @Test("A damaged box, a box for something else, or a malformed seal shows the placeholder")
    func damaged() throws {
        var payload = try Self.sealedPayload()
        var seal = payload["lfgSeal"] as! [String: String]
        var box = Data(base64Encoded: seal["box"]!)!
        box[box.count - 1] ^= 1
        seal["box"] = box.base64EncodedString()
        payload["lfgSeal"] = seal
        #expect(reader.read(payload, open: Self.open(with: Self.phone)) == .placeholder(.unopenable))
        #expect(reader.read(["lfgSeal": "nope"], open: Self.open(with: Self.phone)) == .placeholder(.malformed))
        #expect(reader.read(kid: reader.keyID, box: "AAAA", open: Self.open(with: Self.phone)) == .placeholder(.malformed))
        let text = try AlertSealer.seal(Array("just text".utf8), to: Self.phone.publicKey)
        #expect(reader.read(kid: text.keyID, box: text.base64, open: Self.open(with: Self.phone)) == .placeholder(.notAlertWords))
    }

    @Test("The phone's key id rule is the server's")
    func keyIDRule() {
        #expect(SealedAlertFormat.keyID(fromSHA256: [0x00, 0x0f, 0xa0, 0xff, 1, 2, 3, 4, 5, 6]) == "000fa0ff01020304")
        #expect(SealedAlertFormat.payloadKey == "lfgSeal")
    }
}

@Suite("Opened alert")
struct OpenedAlertTests {
    @Test("The options follow the question on their own line; a free-text question is the text alone")
    func text() {
        let shown = OpenedAlert(AlertWords(title: "api", body: "Deploy?", options: ["Yes", "No"]))
        #expect(shown.title == "api" && shown.body == "Deploy?\nYes · No")
        #expect(OpenedAlert(AlertWords(title: "api", body: "Why?")).body == "Why?")
    }
}

@Suite("Privacy registration")
struct PrivacyRegistrationTests {
    @Test("The app's PUT carries privacy and its sealKey when configured, and neither when not")
    func registration() throws {
        var registration = DeviceRegistration(env: .sandbox)
        var body = try JSONSerialization.jsonObject(with: JSONEncoder().encode(registration)) as? [String: Any] ?? [:]
        #expect(body["privacy"] == nil && body["sealKey"] == nil)
        registration.privacy = true
        registration.sealKey = SealedAlertReaderTests.phone.publicKey.base64
        body = try JSONSerialization.jsonObject(with: JSONEncoder().encode(registration)) as? [String: Any] ?? [:]
        #expect(body["privacy"] as? Bool == true)
        #expect(body["sealKey"] as? String == SealedAlertReaderTests.phone.publicKey.base64)
    }
}
