import FleetCore

/// Privacy mode on the app's side (contract 8.3): the person's choice goes to the server in the device
/// registration, every registration carries the phone's public sealing key, a phone without one makes one, and a
/// server that lost it (or holds an older one) is sent the current one again.
extension FleetAppEngine {
    /// The person turned privacy mode on or off in the app: the servers hear it at once (`PUT /api/devices`
    /// with `privacy`), and from then on every registration carries it.
    public func privacyChanged(_ isOn: Bool) {
        guard privacy != isOn else { return }
        privacy = isOn
        sendDeviceRegistration()
    }

    /// The `sealKey` a device registration carries: the keyring's key (made now when the phone has none, e.g.
    /// after the Keychain was wiped), else the configured text. A keyring failure is traced and the
    /// registration goes without a key: alerts then arrive as placeholders, never in the clear.
    func sealKeyForRegistration() -> String? {
        guard let sealKeys else { return configuration.sealKey }
        do {
            return try sealKeys.keyForRegistration().registration
        } catch {
            record(.sealKeyFailed(error))
            return nil
        }
    }

    /// A new key pair in place of the current one, registered at once: alerts already sealed to the old key
    /// show their placeholder from now on. Nothing happens without a keyring.
    public func rotateSealKey() {
        guard let sealKeys else { return }
        do {
            _ = try sealKeys.makeKey()
        } catch {
            record(.sealKeyFailed(error))
            return
        }
        sendDeviceRegistration()
    }

    /// What the default server says it holds (`sealKeyId` of `GET /api/devices/{id}`): when it is not the
    /// phone's key (the server lost it, or kept an older one), the registration is sent again, once per key.
    func checkRegisteredSealKey(_ serverKeyID: String?) {
        guard let sealKeys, let server = configuration.defaultServer else { return }
        let current: PhoneSealKey?
        do {
            current = try sealKeys.currentKey()
        } catch {
            record(.sealKeyFailed(error))
            return
        }
        let expected = current?.keyID
        guard serverKeyID != expected || expected == nil else { return }
        let repairKey = expected ?? ""
        guard sealKeyRepairedFor != repairKey else { return }
        sealKeyRepairedFor = repairKey
        sendDeviceRegistration(to: server)
    }
}
