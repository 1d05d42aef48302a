import FleetCore
import Foundation

/// What the Notification Service Extension makes of one question alert before iOS shows it (contracts 8.2,
/// 8.3): pure, so every branch is tested on Linux; the Apple side only copies the result into the
/// notification's content and registers the category.
///
/// A sealed alert is opened with the phone's key: the notification shows the words, its `userInfo` gains the
/// opened options (so the tapped button answers with them: ``QuestionResponse`` reads the options from
/// `userInfo`), and the per-question category carries those options as its buttons. An alert that does not open
/// keeps its placeholder and the kind's fixed category: never anything else.
public struct ServicedAlert: Hashable, Sendable {
    /// The title and body to show; nil leaves the alert's own (a clear alert, or the placeholder).
    public var shown: OpenedAlert?
    /// The question the alert asks, with its options as opened; nil when the push is not a question alert.
    public var alert: QuestionAlert?
    /// The per-question category to register and set as the notification's category (the options as
    /// buttons); nil keeps the kind's category the push names.
    public var category: NotificationCategoryDescription?
    /// Why a sealed alert kept its placeholder; nil when it opened or was not sealed.
    public var placeholderReason: SealedAlertReader.Failure?

    /// Serves the push's top-level dictionary (`userInfo` as iOS gives it) with the phone's key.
    public static func serve(_ payload: [String: Any], keyring: (any SealKeyring)?) -> ServicedAlert {
        let delivered = JSONSerialization.isValidJSONObject(payload)
            ? (try? JSONSerialization.data(withJSONObject: payload)).flatMap(QuestionAlert.init(payload:)) : nil
        let reader: SealedAlertReader?
        do { reader = try keyring?.reader() } catch { reader = nil }
        let outcome: SealedAlertReader.Outcome =
            if payload[SealedAlertFormat.payloadKey] == nil {
                .unsealed
            } else if let reader, let keyring {
                reader.read(payload) { enc, ciphertext in try keyring.open(enc: enc, ciphertext: ciphertext) }
            } else {
                .placeholder(.noKey)
            }
        switch outcome {
        case .unsealed:
            return ServicedAlert(
                shown: nil, alert: delivered, category: delivered.map(QuestionCategories.category(for:)),
                placeholderReason: nil)
        case .opened(let words):
            var opened = delivered
            opened?.options = words.options
            return ServicedAlert(
                shown: OpenedAlert(words), alert: opened, category: opened.map(QuestionCategories.category(for:)),
                placeholderReason: nil)
        case .placeholder(let reason):
            return ServicedAlert(shown: nil, alert: delivered, category: nil, placeholderReason: reason)
        }
    }

    /// The notification's `userInfo` after serving: `payload` with the opened options under the key the
    /// app's ``QuestionAlert`` reads them from.
    public func userInfo(_ payload: [String: Any]) -> [String: Any] {
        guard shown != nil, let alert else { return payload }
        var served = payload
        served[QuestionAlert.CodingKeys.options.rawValue] = alert.options
        return served
    }
}
