import FleetCore
import Foundation

/// What the app's Notification Service Extension does with one alert (contract 8.3), minus the crypto: the
/// extension hands in the push's `lfgSeal` and an HPKE opener (CryptoKit on the phone, the reference opener in
/// tests), and shows what comes out. Pure, so every branch is tested on Linux; the Apple part stays a few lines.
///
/// An alert that cannot be opened (sealed to a key the phone has since replaced, damaged, or not an alert)
/// shows the placeholder the push already carries: never anything else.
public struct SealedAlertReader: Sendable {
    /// The id of the key the phone holds now (``SealedAlertFormat/keyID(fromSHA256:)`` of its public point).
    public let keyID: String

    public init(keyID: String) { self.keyID = keyID }

    /// What the notification shows.
    public enum Outcome: Hashable, Sendable {
        /// The push carries no seal: leave the notification as delivered.
        case unsealed
        /// The words, opened: title, body, and the options as the answers offered.
        case opened(AlertWords)
        /// The placeholder stays, for this reason.
        case placeholder(Failure)
    }

    /// Why a sealed alert shows the placeholder.
    public enum Failure: String, Hashable, Sendable {
        /// Sealed to another key (one the phone replaced): the expected case during a key rotation.
        case staleKey
        /// `kid` or `box` missing or not base64, or the box too short to hold enc and a tag.
        case malformed
        /// The box did not open (damaged, or made for something else).
        case unopenable
        /// It opened, but is not an alert's words.
        case notAlertWords
        /// The phone holds no key (never made, or lost with the Keychain; the app makes and registers a new one).
        case noKey
    }

    /// Reads the push's `lfgSeal` (`payload` is the push's top-level dictionary, as `userInfo` gives it).
    ///
    /// - Parameter open: HPKE base-mode open with ``SealedAlertFormat/info`` and empty aad: `enc` is the sender's
    ///   65-byte point, `ciphertext` includes the tag. Throws when it does not open.
    public func read(
        _ payload: [String: Any], open: (_ enc: Data, _ ciphertext: Data) throws -> Data
    ) -> Outcome {
        guard let seal = payload[SealedAlertFormat.payloadKey] else { return .unsealed }
        guard let fields = seal as? [String: Any], let kid = fields["kid"] as? String, let text = fields["box"] as? String
        else { return .placeholder(.malformed) }
        return read(kid: kid, box: text, open: open)
    }

    /// Reads one seal's `kid` and base64 `box`.
    public func read(kid: String, box text: String, open: (_ enc: Data, _ ciphertext: Data) throws -> Data) -> Outcome {
        guard kid == keyID else { return .placeholder(.staleKey) }
        guard let box = Data(base64Encoded: text), box.count >= SealedAlertFormat.encBytes + SealedAlertFormat.tagBytes
        else { return .placeholder(.malformed) }
        let plaintext: Data
        do {
            plaintext = try open(box.prefix(SealedAlertFormat.encBytes), box.dropFirst(SealedAlertFormat.encBytes))
        } catch {
            return .placeholder(.unopenable)
        }
        guard let words = AlertWords(sealedBytes: Array(plaintext)) else { return .placeholder(.notAlertWords) }
        return .opened(words)
    }
}
