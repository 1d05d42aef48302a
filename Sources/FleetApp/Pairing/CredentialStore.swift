/// Where the app keeps each server's device credential (the Keychain on the phone; memory in tests).
/// Only the credential is secret; the server's name and URL live in the app's configuration.
public protocol CredentialStore: AnyObject, Sendable {
    /// Keeps `credential` for the server named `server`, replacing any earlier one.
    func save(_ credential: String, forServer server: String) throws(CredentialStoreError)
    /// The credential kept for `server`, or nil.
    func credential(forServer server: String) throws(CredentialStoreError) -> String?
    /// Forgets `server`'s credential (signing out); forgetting a missing one is not an error.
    func removeCredential(forServer server: String) throws(CredentialStoreError)
}

/// The credential store failed (e.g. a Keychain status), in words.
public struct CredentialStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
