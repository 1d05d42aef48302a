import APNs
import FleetCore

/// What the control plane needs of sealing (contract 8.3), so it stays free of crypto: `lfg serve` wires
/// Sealing's HPKE implementation (`HPKEAlertSealing`); without one, no key is taken and private alerts carry
/// the placeholder alone.
///
/// Rules every implementation keeps:
/// - ``sealKey(base64:)`` refuses anything that is not a key it can seal to, naming what is wrong.
/// - ``disclosure(of:isPrivate:sealKey:)`` never returns ``AlertDisclosure/clear`` when the device is private or
///   has a key; when sealing fails it returns ``AlertDisclosure/placeholder`` and says why, never the words.
public protocol AlertSealing: Sendable {
    /// The key a device registers, checked.
    func sealKey(base64: String) throws(SealKeyRefusal) -> DeviceSealKey
    /// What an alert with `words` carries for a device with privacy `isPrivate` and key `sealKey`.
    func disclosure(of words: AlertWords, isPrivate: Bool, sealKey: DeviceSealKey?) -> AlertSealingResult
}

/// Why a registered `sealKey` was refused (the device's `PUT` answers 400 with it; nothing changes).
public struct SealKeyRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One alert's disclosure for one device, and why sealing failed when it did (for the caller to count and say).
public struct AlertSealingResult: Hashable, Sendable {
    public var disclosure: AlertDisclosure
    public var failure: String?

    public init(disclosure: AlertDisclosure, failure: String? = nil) {
        self.disclosure = disclosure
        self.failure = failure
    }
}

/// The control plane without sealing (tests, the simulator, a server built without it): keys are refused,
/// and a private device's alerts carry only the placeholder.
public struct NoAlertSealing: AlertSealing {
    public init() {}

    public func sealKey(base64: String) throws(SealKeyRefusal) -> DeviceSealKey {
        throw SealKeyRefusal("this server cannot seal alerts; leave sealKey out")
    }

    public func disclosure(of words: AlertWords, isPrivate: Bool, sealKey: DeviceSealKey?) -> AlertSealingResult {
        AlertSealingResult(disclosure: isPrivate || sealKey != nil ? .placeholder : .clear)
    }
}
