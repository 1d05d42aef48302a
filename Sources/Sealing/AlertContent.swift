import FleetCore

/// What an alert's words become for one device: the pure rule of privacy mode's alerts (CONTRACT 8.3).
///
/// - The device registered a `sealKey`: the text (shortened to ``maximumSealedTextBytes``) is sealed to it, and
///   the readable part is only ``placeholder``. The phone's Notification Service Extension opens the box.
/// - No key, privacy on: only ``placeholder``; the words stay on the server.
/// - No key, privacy off: the text itself, as before privacy mode.
///
/// Sealing never falls back to clear text: when sealing fails, the alert carries only the placeholder and
/// ``sealingFailure`` says why, for the caller to count and log.
public struct AlertContent: Sendable, Equatable {
    /// What Apple (and the lock screen, before the extension runs) can read.
    public let readable: String
    /// The sealed words, when the device has a key and sealing worked.
    public let sealed: SealedAlert?
    /// Why sealing failed, when it did (the alert then carries only the placeholder).
    public let sealingFailure: SealError?

    /// The readable text of every private alert: says a session wants attention, not what it said.
    public static let placeholder = AlertWords.placeholder
    /// The most UTF-8 bytes of text sealed into one alert. Sealed, base64'd and named with its key id, that is
    /// at most ``maximumSealedBase64Bytes`` of the push, leaving over 1 KB of APNs' 4096 for the rest.
    public static let maximumSealedTextBytes = AlertWords.maximumSealedBytes
    /// base64(65-byte enc || text || 16-byte tag) for the longest text.
    public static let maximumSealedBase64Bytes = (HPKESuite.encBytes + maximumSealedTextBytes + HPKESuite.tagBytes + 2) / 3 * 4
    /// What marks shortened text.
    public static let ellipsis: Character = "…"

    /// The content for `text` on a device with privacy `privacy` and registered key `sealKey`.
    /// `seal` is ``AlertSealer/seal(_:to:)`` in the server; tests may pass a failing one.
    public static func make(
        text: String, privacy: Bool, sealKey: SealPublicKey?,
        seal: (_ plaintext: [UInt8], _ key: SealPublicKey) throws(SealError) -> SealedAlert = AlertSealer.seal
    ) -> AlertContent {
        guard let sealKey else {
            return AlertContent(readable: privacy ? placeholder : text, sealed: nil, sealingFailure: nil)
        }
        do {
            let sealed = try seal(Array(shortened(text).utf8), sealKey)
            return AlertContent(readable: placeholder, sealed: sealed, sealingFailure: nil)
        } catch {
            return AlertContent(readable: placeholder, sealed: nil, sealingFailure: error)
        }
    }

    /// `text` when its UTF-8 fits `budget` bytes; else its longest prefix of whole characters that fits with
    /// ``ellipsis`` appended. Cut before sealing, so long text is never sent in the clear.
    public static func shortened(_ text: String, toUTF8Bytes budget: Int = maximumSealedTextBytes) -> String {
        if text.utf8.count <= budget { return text }
        let room = max(0, budget - String(ellipsis).utf8.count)
        var kept = ""
        var used = 0
        for character in text {
            let cost = character.utf8.count
            if used + cost > room { break }
            used += cost
            kept.append(character)
        }
        kept.append(ellipsis)
        return kept
    }
}
