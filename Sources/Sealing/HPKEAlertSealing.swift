import APNs
import ControlPlane
import FleetCore

/// The control plane's ``AlertSealing`` on HPKE (docs/sealed-alerts.md): `lfg serve` hands it to the service.
///
/// The rule of what an alert becomes is ``AlertContent/make(text:privacy:sealKey:seal:)``; this maps it onto
/// the push's ``AlertDisclosure``. The sealed text is ``AlertWords/sealedBytes`` of words already fitted to
/// ``AlertWords/maximumSealedBytes``, so the shortening inside `make` never cuts the JSON.
public struct HPKEAlertSealing: AlertSealing {
    let seal: @Sendable (_ plaintext: [UInt8], _ key: SealPublicKey) throws(SealError) -> SealedAlert

    /// - Parameter seal: ``AlertSealer/seal(_:to:)``; tests pass a failing one.
    public init(
        seal: @escaping @Sendable (_ plaintext: [UInt8], _ key: SealPublicKey) throws(SealError) -> SealedAlert =
            AlertSealer.seal
    ) {
        self.seal = seal
    }

    public func sealKey(base64: String) throws(SealKeyRefusal) -> DeviceSealKey {
        do {
            let key = try SealPublicKey(base64: base64)
            return DeviceSealKey(base64: key.base64, keyID: key.keyID)
        } catch {
            throw SealKeyRefusal("\(error); send base64 of the 65-byte P-256 point (x963Representation)")
        }
    }

    public func disclosure(of words: AlertWords, isPrivate: Bool, sealKey: DeviceSealKey?) -> AlertSealingResult {
        guard let sealKey else { return AlertSealingResult(disclosure: isPrivate ? .placeholder : .clear) }
        let key: SealPublicKey
        do {
            key = try SealPublicKey(base64: sealKey.base64)
        } catch {
            return AlertSealingResult(disclosure: .placeholder, failure: "stored key unusable: \(error)")
        }
        let text = String(decoding: words.fitted().sealedBytes, as: UTF8.self)
        let content = AlertContent.make(text: text, privacy: isPrivate, sealKey: key, seal: seal)
        if let sealed = content.sealed {
            return AlertSealingResult(disclosure: .sealed(keyID: sealed.keyID, box: sealed.base64))
        }
        return AlertSealingResult(disclosure: .placeholder, failure: content.sealingFailure.map { "\($0)" })
    }
}
