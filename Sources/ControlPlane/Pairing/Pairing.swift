import FleetCore
import Synchronization

/// Pairing's shared state: the live one-time codes, every device credential (loaded from the store and
/// kept in step with it by ``ControlPlaneService``), and the base URL a pairing link names.
///
/// A class behind a lock, not actor state, because the authenticator checks a credential synchronously
/// on every request.
public final class Pairing: Sendable {
    private struct State {
        var codes = PairingCodeBook()
        var credentials: [DeviceCredentialID: DeviceCredentialRecord] = [:]
        var serverURL = "http://127.0.0.1:\(DefaultPort.server)"
    }

    private let state = Mutex(State())

    public init() {}

    /// The base URL pairing links carry: `LFG_PUBLIC_URL`, or the address `lfg serve` listens on.
    public var serverURL: String {
        get { state.withLock { $0.serverURL } }
        set { state.withLock { $0.serverURL = newValue } }
    }

    /// The live, unrevoked credential `bearer` is, or nil.
    public func verify(_ bearer: String) -> DeviceCredentialRecord? {
        guard let (id, secret) = DeviceCredentialText.parse(bearer) else { return nil }
        guard let record = state.withLock({ $0.credentials[id] }), !record.isRevoked,
            DeviceCredentialText.matches(secret, record)
        else { return nil }
        return record
    }

    /// Every credential, newest first.
    public var credentials: [DeviceCredentialRecord] {
        state.withLock { Array($0.credentials.values) }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    func credential(_ id: DeviceCredentialID) -> DeviceCredentialRecord? { state.withLock { $0.credentials[id] } }

    /// Keeps `record` (after the store committed it).
    func keep(_ record: DeviceCredentialRecord) { state.withLock { $0.credentials[record.id] = record } }

    /// Replaces every credential (at start, from the store).
    func load(_ records: [DeviceCredentialID: DeviceCredentialRecord]) { state.withLock { $0.credentials = records } }

    /// Runs `body` on the code book under the lock.
    func withCodes<T>(_ body: (inout PairingCodeBook) -> T) -> T { state.withLock { body(&$0.codes) } }
}
