import FleetCore

/// The whole database, every account's rows in it: the stores that hold accounts (SQLite, PostgreSQL,
/// memory) conform. Each account reaches its rows only through ``scoped(to:)``, a ``Store`` whose every
/// read and write names that one account, so a service (and every route over it) holds one account's
/// handle and cannot name another's rows at all.
///
/// Used directly as a ``Store``, it is the install owner's (``AccountID/owner``): a single-owner install
/// behaves as before accounts existed, and the rows it wrote then are the owner's.
public protocol AccountStore: Store {
    /// Everything `account` stored.
    func load(account: AccountID) async throws(StoreError) -> StoreContents
    /// Applies `writes` to `account`'s rows, in order, as one transaction.
    func commit(_ writes: [StoreWrite], account: AccountID) async throws(StoreError)
    /// `account`'s card history, newest first, at most `limit` entries, optionally for one device.
    func history(account: AccountID, deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord]
    /// Every account, revoked ones included.
    func accounts() async throws(StoreError) -> [AccountRecord]
    /// Inserts or replaces an account by name (a revocation puts it with `revokedAt` set).
    func putAccount(_ record: AccountRecord) async throws(StoreError)
    /// Inserts a new account unless one of its name exists (made meanwhile, perhaps by another instance
    /// sharing the database); true when inserted.
    func addAccount(_ record: AccountRecord) async throws(StoreError) -> Bool
}

extension AccountStore {
    public func load() async throws(StoreError) -> StoreContents { try await load(account: .owner) }

    public func commit(_ writes: [StoreWrite]) async throws(StoreError) { try await commit(writes, account: .owner) }

    public func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        try await history(account: .owner, deviceId: deviceId, limit: limit)
    }

    /// `account`'s own store: every call it makes names `account`, and nothing else.
    public func scoped(to account: AccountID) -> any Store { AccountScopedStore(base: self, account: account) }
}

/// One account's handle on an ``AccountStore``: what an account's service is given.
public struct AccountScopedStore<Base: AccountStore>: Store {
    let base: Base
    public let account: AccountID

    public func load() async throws(StoreError) -> StoreContents { try await base.load(account: account) }

    public func commit(_ writes: [StoreWrite]) async throws(StoreError) {
        try await base.commit(writes, account: account)
    }

    public func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        try await base.history(account: account, deviceId: deviceId, limit: limit)
    }
}
