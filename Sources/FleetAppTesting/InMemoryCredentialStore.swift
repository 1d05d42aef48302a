import FleetApp
import Synchronization

/// A ``CredentialStore`` in memory, for tests; `failNextSave` makes the next save throw.
public final class InMemoryCredentialStore: CredentialStore {
    private struct State {
        var credentials: [String: String] = [:]
        var failNextSave = false
    }

    private let state = Mutex(State())

    public init() {}

    public func save(_ credential: String, forServer server: String) throws(CredentialStoreError) {
        try state.withLock { (state: inout State) throws(CredentialStoreError) in
            if state.failNextSave {
                state.failNextSave = false
                throw CredentialStoreError("injected failure")
            }
            state.credentials[server] = credential
        }
    }

    public func credential(forServer server: String) throws(CredentialStoreError) -> String? {
        state.withLock { $0.credentials[server] }
    }

    public func removeCredential(forServer server: String) throws(CredentialStoreError) {
        state.withLock { $0.credentials[server] = nil }
    }

    /// Makes the next ``save(_:forServer:)`` throw and keep nothing.
    public func failNextSave() { state.withLock { $0.failNextSave = true } }

    /// Every kept credential, by server name.
    public var all: [String: String] { state.withLock { $0.credentials } }
}
