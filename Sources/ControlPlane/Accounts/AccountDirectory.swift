import FleetCore
import Synchronization

/// The install's accounts at run time: the owner's service, one service per live account (each over its
/// own account-scoped store handle, ``AccountStore/scoped(to:)``), and the lookups a request needs to
/// find whose it is. With no accounts it holds the owner alone, and everything behaves as before.
///
/// A class behind a lock, not an actor, because the router finds a request's account synchronously.
public final class AccountDirectory: Sendable {
    /// One account's service and the routes over it: a request reaches this account's rows only.
    public struct Tenant: Sendable {
        public let account: AccountID
        public let service: ControlPlaneService
        let routes: [Route]

        init(_ account: AccountID, _ service: ControlPlaneService) {
            self.account = account
            self.service = service
            routes = APIRouter.makeRoutes(service)
        }
    }

    /// Makes a new account's service over its own store handle (not yet started).
    public typealias ServiceFactory = @Sendable (AccountID, any Store) throws -> ControlPlaneService

    private struct State {
        var tenants: [AccountID: Tenant] = [:]
        var records: [AccountID: AccountRecord] = [:]
        /// Names being created (their store write is in flight), so two creates of one name cannot both win.
        var pending: Set<AccountID> = []
        /// Accounts whose service is being opened (by a create or a refresh), so none is opened twice.
        var opening: Set<AccountID> = []
        /// Which account holds a paired device's credential, learnt on first use.
        var credentialAccounts: [String: AccountID] = [:]
        var runs: [AccountID: Task<Void, Never>] = [:]
        var isRunning = false
        /// The push gate and pairing link base `configure` gave, for accounts made later.
        var configured: (gate: PushGate?, serverURL: String)?
        var tokenIds: [String: AccountID] = [:]
    }

    /// The install owner's (the auth token, the dashboard, the hooks on this machine).
    public let owner: Tenant
    private let store: (any AccountStore)?
    private let makeService: ServiceFactory?
    /// Why accounts cannot be served here, if so: they are listed, never opened, and none can be made.
    private let unavailable: String?
    private let wallClock: WallClock
    private let state = Mutex(State())

    /// - Parameters:
    ///   - store: where accounts are kept; nil: accounts cannot be made (a store without them).
    ///   - unavailable: why this server cannot serve accounts (they are listed but never opened), or nil.
    ///   - makeService: a new account's service over its own handle; nil: accounts cannot be made.
    public init(
        owner: ControlPlaneService, store: (any AccountStore)? = nil, unavailable: String? = nil,
        wallClock: WallClock = .system, makeService: ServiceFactory? = nil
    ) {
        self.owner = Tenant(.owner, owner)
        self.store = store
        self.unavailable = unavailable
        self.makeService = makeService
        self.wallClock = wallClock
    }

    /// Loads the accounts and starts every live one's service (its rows loaded). Call once, before serving:
    /// the first ``refresh()``.
    public func start() async throws(ServiceError) { try await refresh() }

    /// Runs every live account's service (ticks, pushes) until cancelled; accounts made meanwhile start
    /// at once. The owner's service is run by its caller, as before accounts.
    public func run() async {
        let tenants = state.withLock { state in
            state.isRunning = true
            return Array(state.tenants.values)
        }
        for tenant in tenants { launch(tenant) }
        // A stream nothing is ever sent on: its iteration ends only when this task is cancelled.
        let (cancelled, keepOpen) = AsyncStream<Never>.makeStream()
        for await _ in cancelled {}
        keepOpen.finish()
        let runs = state.withLock { state in
            state.isRunning = false
            defer { state.runs.removeAll() }
            return Array(state.runs.values)
        }
        for run in runs { run.cancel() }
    }

    /// Sets every account's push gate and pairing link base (now and for accounts made later).
    public func configure(gate: PushGate?, serverURL: String) async {
        let tenants = state.withLock { state in
            state.configured = (gate, serverURL)
            return Array(state.tenants.values)
        }
        for tenant in tenants {
            await tenant.service.setGate(gate)
            tenant.service.pairing.serverURL = serverURL
        }
    }

    // MARK: lookups

    /// The tenant `authorization` speaks for; nil when nobody (or an account revoked since).
    public func tenant(for authorization: Authenticator.Authorization) -> Tenant? {
        switch authorization {
        case .bearer, .session: owner
        case .account(let record): tenant(record.id)
        case .device(_, let account): tenant(account)
        case .none: nil
        }
    }

    /// `account`'s tenant, while it is live.
    public func tenant(_ account: AccountID) -> Tenant? {
        account == .owner ? owner : state.withLock { $0.tenants[account] }
    }

    /// Whether an account is served here, as a lease round needs to know before it gives up the account's
    /// devices (``LeaseDirector``).
    public enum Presence: Sendable {
        /// Served: its service drives the devices it is told it holds.
        case served(Tenant)
        /// Being opened (made here, or read by a refresh and not started yet): served soon, not gone.
        case opening
        /// Not heard of here (made elsewhere since the accounts were last read).
        case unknown
        /// Never served here: revoked, failed to open, or this server cannot serve accounts.
        case closed
    }

    /// `account`'s presence here now.
    public func presence(of account: AccountID) -> Presence {
        if account == .owner { return .served(owner) }
        return state.withLock { state in
            if let tenant = state.tenants[account] { return .served(tenant) }
            if state.opening.contains(account) || state.pending.contains(account) { return .opening }
            return state.records[account] == nil ? .unknown : .closed
        }
    }

    /// The live account whose token `bearer` is.
    func account(bearer: String) -> AccountRecord? {
        guard let (tokenId, _) = CredentialText.account.parse(bearer) else { return nil }
        let record = state.withLock { state in state.tokenIds[tokenId].flatMap { state.records[$0] } }
        guard let record, record.accepts(bearer), tenant(record.id) != nil else { return nil }
        return record
    }

    /// The live paired-device credential `bearer` is, and the account that paired it.
    func device(bearer: String) -> (DeviceCredentialRecord, AccountID)? {
        guard let (id, _) = CredentialText.device.parse(bearer) else { return nil }
        if let known = state.withLock({ $0.credentialAccounts[id] }), let tenant = tenant(known) {
            return tenant.service.pairing.verify(bearer).map { ($0, known) }
        }
        // First use since it paired (or since start): find its account once.
        for tenant in allTenants where tenant.service.pairing.credential(DeviceCredentialID(id)) != nil {
            state.withLock { $0.credentialAccounts[id] = tenant.account }
            return tenant.service.pairing.verify(bearer).map { ($0, tenant.account) }
        }
        return nil
    }

    /// The tenant whose live pairing code `code` is (the pairing route is open to anyone holding one).
    func tenant(holdingCode code: String) -> Tenant? {
        allTenants.first { $0.service.pairing.withCodes { $0.expiry(of: code) } != nil }
    }

    /// The owner's tenant and every live account's.
    public var allTenants: [Tenant] { [owner] + state.withLock { Array($0.tenants.values) } }

    // MARK: the accounts' lifecycle (`lfg accounts`)

    /// Every account, revoked ones included, by name.
    public var listings: [AccountListing] {
        state.withLock { Array($0.records.values) }.sorted { $0.id < $1.id }.map(AccountListing.init)
    }

    /// A new account named `name`: its token, shown once (only its hash is kept), and its listing.
    public func create(_ name: String) async throws(ServiceError) -> (token: String, listing: AccountListing) {
        let id: AccountID
        do { id = try AccountID.validated(name) } catch { throw .invalid(error) }
        guard let store, makeService != nil, unavailable == nil else {
            throw .invalid(InputError(
                field: nil, message: "this server cannot make accounts: \(unavailable ?? "its store keeps none")"))
        }
        let taken = state.withLock { state in
            let taken = state.records[id] != nil || state.pending.contains(id)
            if !taken { state.pending.insert(id) }
            return taken
        }
        guard !taken else {
            throw Self.nameTaken(id)
        }
        defer { state.withLock { _ = $0.pending.remove(id) } }
        let (token, record) = AccountRecord.make(id, now: wallClock.now)
        // Insert only: another instance sharing the database may have made the name meanwhile.
        let isAdded: Bool
        do { isAdded = try await store.addAccount(record) } catch { throw .store(error) }
        guard isAdded else {
            throw Self.nameTaken(id)
        }
        keep(record)
        if claimOpening(id) { try await open(id) }
        return (token, AccountListing(record))
    }

    /// Revokes `name`'s token: refused from its next call on, its open streams end, its service stops.
    /// Its rows are kept. Revoking a revoked account changes nothing.
    public func revoke(_ name: String) async throws(ServiceError) -> AccountListing {
        let id = AccountID(name)
        // Made on another instance sharing the database and not heard of here yet: look again.
        if state.withLock({ $0.records[id] == nil }) { try await refresh() }
        guard var record = state.withLock({ $0.records[id] }) else {
            throw .notFound("no account '\(name)'; lfg accounts list shows them")
        }
        guard !record.isRevoked else { return AccountListing(record) }
        guard let store else { throw .notFound("no account '\(name)'") }
        record.revokedAt = wallClock.now
        do { try await store.putAccount(record) } catch { throw .store(error) }
        keep(record)
        close(id)
        return AccountListing(record)
    }

    /// Catches up with the accounts made or revoked elsewhere (other instances sharing the database):
    /// opens the new live ones, stops the revoked ones. Every account to open is marked as opening before
    /// the first is opened, so a lease round meanwhile never takes one for gone (``presence(of:)``).
    /// Throws the first failure, after trying every account.
    public func refresh() async throws(ServiceError) {
        guard let store else { return }
        let records: [AccountRecord]
        do { records = try await store.accounts() } catch { throw .store(error) }
        var opening: [AccountID] = []
        for record in records where !state.withLock({ $0.pending.contains(record.id) }) {
            if record.isRevoked {
                keep(record)
                close(record.id)
                continue
            }
            // Marked as opening before it is known here: a lease round between the two steps would
            // otherwise find a known account neither served nor opening, take it for closed, and give up
            // its devices.
            let isClaimed = claimOpening(record.id)
            keep(record)
            if isClaimed { opening.append(record.id) }
        }
        var failure: ServiceError?
        for id in opening {
            do { try await open(id) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    private static func nameTaken(_ id: AccountID) -> ServiceError {
        .invalid(
            InputError(
                field: "name", message: "an account named '\(id)' exists (a revoked name stays taken: its rows are kept)"))
    }

    /// Stops `id`'s service here: refused from its next call on, its open streams end. Its rows are kept.
    private func close(_ id: AccountID) {
        let (tenant, run) = state.withLock { state in
            return (state.tenants.removeValue(forKey: id), state.runs.removeValue(forKey: id))
        }
        run?.cancel()
        tenant?.service.events.finishAll()
    }

    /// Marks `id` as being opened: false when it is served or being opened already, or when this server
    /// cannot open accounts.
    private func claimOpening(_ id: AccountID) -> Bool {
        guard store != nil, makeService != nil, unavailable == nil else { return false }
        return state.withLock { state in
            guard state.tenants[id] == nil, !state.opening.contains(id) else { return false }
            state.opening.insert(id)
            return true
        }
    }

    /// Makes, starts and keeps `id`'s service (claimed by ``claimOpening(_:)``); runs it when the
    /// directory runs.
    private func open(_ id: AccountID) async throws(ServiceError) {
        defer { state.withLock { _ = $0.opening.remove(id) } }
        guard let store, let makeService else { return }
        let service: ControlPlaneService
        do { service = try makeService(id, store.scoped(to: id)) } catch {
            throw .store(StoreError(operation: "open account \(id)", message: "\(error)"))
        }
        if let (gate, serverURL) = state.withLock({ $0.configured }) {
            service.pairing.serverURL = serverURL
            await service.setGate(gate)
        }
        do { try await service.start() } catch { throw .store(error) }
        let tenant = Tenant(id, service)
        let isRunning = state.withLock { state in
            // Revoked while it opened: never served.
            guard state.records[id]?.isRevoked != true else { return false }
            state.tenants[id] = tenant
            // Served from here on: no longer opening, in the same step (a lease round never sees neither).
            state.opening.remove(id)
            return state.isRunning
        }
        if isRunning { launch(tenant) }
    }

    private func keep(_ record: AccountRecord) {
        state.withLock { state in
            state.records[record.id] = record
            state.tokenIds[record.tokenId] = record.id
        }
    }

    private func launch(_ tenant: Tenant) {
        let run = Task { await tenant.service.run() }
        state.withLock { $0.runs[tenant.account] = run }
    }
}
