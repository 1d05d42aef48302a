import FleetApp
import Foundation
import Sealing
import Synchronization

/// The demo phone's sealing key pair, made as the real phone makes its own (a fresh P-256 key from the
/// system's random source, contract 8.3) and kept in memory in place of its Keychain. Its private half never
/// reaches the server: the server only ever gets the `sealKey` the app registers, and the demo phone opens each
/// sealed alert with ``ReferenceOpener`` as the phone's extension does with CryptoKit.
public final class DemoSealKeyring: SealKeyring {
    private let key = Mutex<SealPrivateKey?>(nil)

    public init() {}

    public func currentKey() throws(SealKeyringError) -> PhoneSealKey? {
        key.withLock { $0.map(Self.phoneKey(of:)) }
    }

    public func makeKey() throws(SealKeyringError) -> PhoneSealKey {
        let made: SealPrivateKey
        do {
            made = try SealPrivateKey.random()
        } catch {
            throw SealKeyringError("no key could be made: \(error)")
        }
        key.withLock { $0 = made }
        return Self.phoneKey(of: made)
    }

    public func open(enc: Data, ciphertext: Data) throws(SealKeyringError) -> Data {
        guard let current = key.withLock({ $0 }) else { throw SealKeyringError("the phone holds no key") }
        do {
            let sealed = SealedAlert(keyID: current.publicKey.keyID, box: Array(enc + ciphertext))
            return Data(try ReferenceOpener(key: current).open(sealed))
        } catch {
            throw SealKeyringError("the box did not open: \(error)")
        }
    }

    static func phoneKey(of key: SealPrivateKey) -> PhoneSealKey {
        PhoneSealKey(registration: key.publicKey.base64, keyID: key.publicKey.keyID)
    }
}
