import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import Sealing
import Testing

/// The Notification Service Extension's step (contracts 8.2, 8.3): a sealed question alert opens with the phone's
/// key, its buttons are the opened options, and the tapped button answers with them; anything else keeps the
/// placeholder and the kind's fixed buttons.
@Suite("Serviced alert")
struct ServicedAlertTests {
    static let phone = try! SealPrivateKey(derivedFrom: Array("serviced alert phone".utf8))
    static let words = AlertWords(title: "cache-1", body: "Which store?", options: ["SQLite", "Redis", "Memory"])

    /// The phone's keyring in memory, opening with the reference opener (CryptoKit's part on the phone).
    static func keyring(holding key: SealPrivateKey = phone) -> InMemorySealKeyring {
        InMemorySealKeyring(
            current: PhoneSealKey(registration: key.publicKey.base64, keyID: key.publicKey.keyID),
            opener: { _, enc, ciphertext in
                Data(try ReferenceOpener(key: key).open(SealedAlert(keyID: key.publicKey.keyID, box: Array(enc + ciphertext))))
            })
    }

    /// A private device's choice alert as the server sends it: no title, the placeholder, no options, the seal.
    static func sealedPayload(to key: SealPublicKey = phone.publicKey) throws -> [String: Any] {
        let sealed = try AlertSealer.seal(words.sealedBytes, to: key)
        return [
            "aps": ["alert": ["body": AlertWords.placeholder], "category": "LFG_QUESTION_CHOICE", "mutable-content": 1],
            "questionId": "cache-ask-1", "sid": "cache-1", "kind": "choice",
            "lfgSeal": ["kid": sealed.keyID, "box": sealed.base64],
        ]
    }

    @Test("A sealed alert opens: its words show, its buttons are the opened options, a tap answers with one")
    func opensToButtons() throws {
        let payload = try Self.sealedPayload()
        let served = ServicedAlert.serve(payload, keyring: Self.keyring())
        #expect(served.shown == OpenedAlert(Self.words))
        #expect(served.category?.actions.map(\.title) == ["SQLite", "Redis", "Memory"])
        // What iOS hands the app when a button is tapped: the userInfo the extension left.
        let userInfo = served.userInfo(payload)
        let tapped = try #require(QuestionAlert(payload: try JSONSerialization.data(withJSONObject: userInfo)))
        let button = try #require(served.category?.actions.first { $0.title == "SQLite" })
        let response = QuestionResponse(alert: tapped, action: .action(button.identifier, typedText: nil))
        #expect(response.meaning == .answer("cache-ask-1", "SQLite"))
    }

    @Test("An alert sealed to a replaced key keeps its placeholder and the kind's buttons, never words")
    func staleKeyKeepsPlaceholder() throws {
        let old = try SealPrivateKey(derivedFrom: Array("the phone's old key".utf8))
        let payload = try Self.sealedPayload(to: old.publicKey)
        let served = ServicedAlert.serve(payload, keyring: Self.keyring())
        #expect(served.shown == nil && served.category == nil && served.placeholderReason == .staleKey)
        #expect(served.alert?.options == [])
        #expect(served.userInfo(payload)["options"] == nil)
    }

    @Test("Without a key (none made, or the Keychain fails) a sealed alert keeps its placeholder")
    func noKeyKeepsPlaceholder() throws {
        let payload = try Self.sealedPayload()
        #expect(ServicedAlert.serve(payload, keyring: nil).placeholderReason == .noKey)
        let failing = Self.keyring()
        failing.failNextCall(SealKeyringError("Keychain locked"))
        #expect(ServicedAlert.serve(payload, keyring: failing).placeholderReason == .noKey)
    }

    @Test("A damaged box keeps its placeholder")
    func damagedBox() throws {
        var payload = try Self.sealedPayload()
        var seal = try #require(payload["lfgSeal"] as? [String: String])
        let text = try #require(seal["box"])
        var box = try #require(Data(base64Encoded: text))
        box[70] ^= 1
        seal["box"] = box.base64EncodedString()
        payload["lfgSeal"] = seal
        #expect(ServicedAlert.serve(payload, keyring: Self.keyring()).placeholderReason == .unopenable)
    }

    @Test("A clear alert keeps its words; its buttons are its own options")
    func clearAlert() {
        let payload: [String: Any] = [
            "aps": ["alert": ["title": "cache-1", "body": "Which store?"]],
            "questionId": "cache-ask-1", "sid": "cache-1", "kind": "choice", "options": ["SQLite", "Redis"],
        ]
        let served = ServicedAlert.serve(payload, keyring: Self.keyring())
        #expect(served.shown == nil && served.placeholderReason == nil)
        #expect(served.category?.actions.map(\.title) == ["SQLite", "Redis"])
    }

    @Test("A placeholder's fixed category is the one registered at launch")
    func fixedCategory() {
        #expect(QuestionCategories.fixedCategory(of: .confirm) == QuestionCategories.registered.first {
            $0.identifier == QuestionNotificationNames.category(.confirm)
        })
    }
}
