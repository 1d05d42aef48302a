#if canImport(Security)
import FleetApp
import Foundation
import Security

/// The phone's ``CredentialStore``: each server's device credential is a generic-password Keychain item
/// (service = this store's service, account = the server's name), readable after the first unlock so a
/// background wake can still reach the server, and never synced off this device.
public final class KeychainCredentialStore: CredentialStore {
    let service: String

    public init(service: String) { self.service = service }

    public func save(_ credential: String, forServer server: String) throws(CredentialStoreError) {
        let query = baseQuery(server)
        let attributes: [CFString: Any] = [
            kSecValueData: Data(credential.utf8),
            kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil)
        }
        try check(status, "save the credential for \(server)")
    }

    public func credential(forServer server: String) throws(CredentialStoreError) -> String? {
        var query = baseQuery(server)
        query[kSecReturnData] = true
        query[kSecMatchLimit] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try check(status, "read the credential for \(server)")
        guard let data = result as? Data else { throw CredentialStoreError("the Keychain item for \(server) holds no data") }
        return String(decoding: data, as: UTF8.self)
    }

    public func removeCredential(forServer server: String) throws(CredentialStoreError) {
        let status = SecItemDelete(baseQuery(server) as CFDictionary)
        if status == errSecItemNotFound { return }
        try check(status, "remove the credential for \(server)")
    }

    func baseQuery(_ server: String) -> [CFString: Any] {
        [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: server]
    }

    func check(_ status: OSStatus, _ action: String) throws(CredentialStoreError) {
        guard status != errSecSuccess else { return }
        let message = SecCopyErrorMessageString(status, nil).map { "\($0)" } ?? "status \(status)"
        throw CredentialStoreError("the Keychain could not \(action): \(message)")
    }
}
#endif
