#if canImport(Security)
import FleetApp
import Foundation

/// The phone's ``CredentialStore``: each server's device credential is a generic-password Keychain item
/// (service = this store's service, account = the server's name), readable after the first unlock so a
/// background wake can still reach the server, and never synced off this device.
public final class KeychainCredentialStore: CredentialStore {
    let service: String

    public init(service: String) { self.service = service }

    public func save(_ credential: String, forServer server: String) throws(CredentialStoreError) {
        do { try item(server).write(Data(credential.utf8)) } catch { throw failure(error, server) }
    }

    public func credential(forServer server: String) throws(CredentialStoreError) -> String? {
        do {
            return try item(server).read().map { String(decoding: $0, as: UTF8.self) }
        } catch {
            throw failure(error, server)
        }
    }

    public func removeCredential(forServer server: String) throws(CredentialStoreError) {
        do { try item(server).delete() } catch { throw failure(error, server) }
    }

    func item(_ server: String) -> KeychainItem { KeychainItem(service: service, account: server, accessGroup: nil) }

    func failure(_ error: KeychainFailure, _ server: String) -> CredentialStoreError {
        CredentialStoreError("the credential for \(server): \(error)")
    }
}
#endif
