import FleetCore

/// How much of an alert's words a push shows Apple (contract 8.3).
public enum AlertDisclosure: Hashable, Sendable {
    /// The words themselves, as before privacy mode.
    case clear
    /// Only ``FleetCore/AlertWords/placeholder``: a private device with no key (or sealing failed).
    case placeholder
    /// The placeholder, and the words sealed to the device's key: `"lfgSeal": {"kid", "box"}` at the top level
    /// (docs/sealed-alerts.md). `box` is base64 of enc || ciphertext.
    case sealed(keyID: String, box: String)

    /// Whether the push may carry words (titles, question text, options).
    public var showsWords: Bool { self == .clear }

}
