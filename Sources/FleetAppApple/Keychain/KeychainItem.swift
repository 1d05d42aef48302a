#if canImport(Security)
import Foundation
import Security

/// One generic-password Keychain item (service + account, optionally in a shared access group): the only code
/// that calls `SecItem*`. Written readable after the first unlock (a background wake or an alert on a locked
/// phone still reads it) and never synced off this device.
struct KeychainItem {
    let service: String
    let account: String
    let accessGroup: String?

    /// The item's data, or nil when there is none.
    func read() throws(KeychainFailure) -> Data? {
        var query = baseQuery
        query[kSecReturnData] = true
        query[kSecMatchLimit] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try Self.check(status, "read")
        guard let data = result as? Data else { throw KeychainFailure(description: "the Keychain item holds no data") }
        return data
    }

    /// Keeps `data` in the item, replacing what it held.
    func write(_ data: Data) throws(KeychainFailure) {
        let attributes: [CFString: Any] = [
            kSecValueData: data,
            kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(baseQuery.merging(attributes) { _, new in new } as CFDictionary, nil)
        }
        try Self.check(status, "save")
    }

    /// Deletes the item; deleting a missing one is not an error.
    func delete() throws(KeychainFailure) {
        let status = SecItemDelete(baseQuery as CFDictionary)
        if status == errSecItemNotFound { return }
        try Self.check(status, "remove")
    }

    var baseQuery: [CFString: Any] {
        var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account]
        if let accessGroup { query[kSecAttrAccessGroup] = accessGroup }
        return query
    }

    static func check(_ status: OSStatus, _ action: String) throws(KeychainFailure) {
        guard status != errSecSuccess else { return }
        let message = SecCopyErrorMessageString(status, nil).map { "\($0)" } ?? "status \(status)"
        throw KeychainFailure(description: "the Keychain could not \(action) the item: \(message)")
    }
}

/// A Keychain call failed, in words (each store wraps it in its own error).
struct KeychainFailure: Error, CustomStringConvertible {
    let description: String
}
#endif
