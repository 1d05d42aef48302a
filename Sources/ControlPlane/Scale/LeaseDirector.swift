import FleetCore

/// The lease rounds and notifications of one instance sharing a database, for every account at once
/// (contract 8.4): one round claims a fair share of all accounts' devices, and each account's service
/// (``AccountDirectory``) is called only when its share changed, its fleet changed, or a write was
/// queued for one of its devices. An account with nothing happening costs nothing per round.
///
/// Renewing never waits for what a round found to do: the services' follow-ups load devices taken over
/// and read changes (loading thousands of devices took longer than the lease time, and an instance taking
/// over lost its own leases meanwhile).
public actor LeaseDirector {
    private let coordinator: any FleetCoordinator
    private let leases: InstanceLeases
    private let accounts: AccountDirectory
    private let ttl: Double
    private let interval: Duration
    private let clock: any Clock<Duration>
    private let wallClock: WallClock
    private let reportProblem: @Sendable (String) -> Void

    /// Every account's devices held as of the last round.
    private var held: [AccountID: Set<DeviceID>] = [:]
    /// Held devices past the fair share, given up once nothing is in flight for them.
    private var excess: Set<LeasedDevice> = []
    /// Each account's fleet revision as last read, and their sum (-1: read them all at the next round).
    private var knownRevisions: [AccountID: Int64] = [:]
    private var knownRevisionSum: Int64 = -1
    /// The accounts' stamp as last read (-1: re-read the accounts at the next round).
    private var accountsStamp: Int64 = -1
    /// The accounts must be read again (a round saw their stamp move, or a notification said so); done
    /// beside the rounds, with the other catch-ups.
    private var isAccountsRefreshOwed = false
    private var isRefreshingAccounts = false
    /// What the last round found to catch up on (a revision sum not yet read, accounts with queued
    /// writes), done beside the rounds (``runCatchUps()``), so a round never waits for the reads.
    private var owedRevisionSum: Int64?
    private var owedInboxAccounts: Set<AccountID> = []
    private let catchUp = ChangeSignal()
    /// Lease rounds that failed (the database unreachable): counted, and said on stderr.
    public private(set) var failedRounds = 0

    /// - Parameters:
    ///   - ttl: how long a lease lasts past its last renewal (seconds): the takeover time after a kill -9.
    ///   - interval: how often leases are renewed and free devices claimed; by default every third of
    ///     `ttl`, so two rounds can fail before a lease runs out.
    public init(
        coordinator: any FleetCoordinator, leases: InstanceLeases, accounts: AccountDirectory, ttl: Double,
        interval: Duration? = nil, clock: any Clock<Duration> = ContinuousClock(), wallClock: WallClock = .system,
        reportProblem: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.coordinator = coordinator
        self.leases = leases
        self.accounts = accounts
        self.ttl = ttl
        self.interval = interval ?? .seconds(ttl / 3)
        self.clock = clock
        self.wallClock = wallClock
        self.reportProblem = reportProblem
    }

    /// Runs a lease round every `interval` and acts on notifications, until cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.runNotices() }
            group.addTask { await self.runCatchUps() }
            while !Task.isCancelled {
                await round()
                do { try await clock.sleep(for: interval) } catch { break }
            }
            group.cancelAll()
        }
    }

    /// One round: give up what services stopped driving, renew, claim, and tell each account whose share
    /// changed; then have the catch-ups read what notifications may have missed (fleet changes, queued
    /// writes, accounts). An account being opened is neither told nor given up until it is served.
    public func round() async {
        let startedAt = wallClock.now
        let (number, requests) = leases.startRound()
        let releasing = await stopDriving(excess.union(requests))
        let round: LeaseRound
        do { round = try await coordinator.leaseRound(ttl: ttl, releasing: releasing) } catch {
            failedRounds += 1
            reportProblem("lease round failed: \(error); pushing stops when the leases run out")
            // No longer driven here: given up at the next round that reaches the database.
            leases.requestRelease(releasing)
            return
        }
        for device in releasing { held[device.account]?.remove(device.device) }
        if round.accountsStamp != accountsStamp {
            accountsStamp = round.accountsStamp
            isAccountsRefreshOwed = true
        }
        let now = Self.grouped(round.held)
        let gained = Self.grouped(round.gained)
        var lost = 0
        var notYetServed: [AccountID: Set<DeviceID>] = [:]
        for account in Set(held.keys).union(now.keys).sorted() {
            let before = held[account] ?? []
            let after = now[account] ?? []
            guard before != after || gained[account] != nil else { continue }
            switch served(account) {
            case .some(let service):
                lost += await service.leaseShareChanged(held: after, gained: gained[account] ?? [], round: number)
            case .none where isServedSoon(account):
                // Being opened here: its leases are kept, and it is told its share at the first round
                // after it opened (its share then differs from the one recorded for it).
                notYetServed[account] = before
            case .none:
                // An account not served here (revoked): nobody here drives its devices.
                leases.requestRelease(after.map { LeasedDevice(account, $0) })
            }
        }
        held = now.merging(notYetServed) { _, recorded in recorded }.filter { !$0.value.isEmpty }
        leases.finishRound(
            validUntil: startedAt + ttl * ControlPlaneService.leaseTrust, held: round.held.count,
            gained: round.gained.count, lost: lost, shed: releasing.count)
        let extra = round.held.count - round.fairShare
        excess = extra > 0 ? Set(round.held.sorted(by: >).prefix(extra)) : []
        if !round.gained.isEmpty || lost > 0 || !releasing.isEmpty {
            // Leases move rarely (start, a kill, a handover, rebalancing): each move is worth a line.
            reportProblem(
                "leases: holding \(round.held.count) of fair share \(round.fairShare) (\(round.liveInstances) live); "
                    + "gained \(Self.listed(round.gained)), lost \(lost), shed \(Self.listed(releasing))")
        }
        owedInboxAccounts.formUnion(round.inboxAccounts)
        if round.fleetRevisionSum != knownRevisionSum { owedRevisionSum = round.fleetRevisionSum }
        if !owedInboxAccounts.isEmpty || owedRevisionSum != nil || isAccountsRefreshOwed { catchUp.notify() }
    }

    /// `account`'s service when it is served here.
    private func served(_ account: AccountID) -> ControlPlaneService? {
        if case .served(let tenant) = accounts.presence(of: account) { return tenant.service }
        return nil
    }

    /// Whether `account`, not served here, soon will be: it is being opened, or it was made since the
    /// accounts were last read (a refresh is owed or running). Its leases are kept meanwhile: giving them
    /// up would leave its devices unpushed until a later round claims them again.
    private func isServedSoon(_ account: AccountID) -> Bool {
        switch accounts.presence(of: account) {
        case .served, .opening: true
        case .unknown: isAccountsRefreshOwed || isRefreshingAccounts
        case .closed: false
        }
    }

    /// Catches up on what rounds found until cancelled: the coordinator's reads share a connection with
    /// the takeover loads, and renewing must never wait for those.
    private func runCatchUps() async {
        while !Task.isCancelled {
            await catchUp.wait()
            if Task.isCancelled { return }
            if isAccountsRefreshOwed { await refreshAccounts() }
            let inboxAccounts = owedInboxAccounts
            owedInboxAccounts = []
            for account in inboxAccounts.sorted() { await accounts.tenant(account)?.service.inboxNoticed(nil) }
            if let sum = owedRevisionSum {
                owedRevisionSum = nil
                await catchUpRevisions(sum: sum)
            }
        }
    }

    /// Asks each account's service to stop driving its devices among `devices` that have nothing in
    /// flight; the rest stay asked for. Returns the devices whose leases can be given up now.
    private func stopDriving(_ devices: Set<LeasedDevice>) async -> Set<LeasedDevice> {
        var releasing = Set<LeasedDevice>()
        for (account, ids) in Self.grouped(devices).sorted(by: { $0.key < $1.key }) {
            if let service = served(account) {
                releasing.formUnion(await service.shed(ids).map { LeasedDevice(account, $0) })
            } else if !isServedSoon(account) {
                releasing.formUnion(ids.map { LeasedDevice(account, $0) })
            }
            // An account being opened keeps its leases; the rounds after it opened balance them again.
        }
        return releasing
    }

    /// Some account's fleet moved on: tells each account whose revision is not the one last read (a
    /// notification may have been missed).
    private func catchUpRevisions(sum: Int64) async {
        let revisions: [AccountID: Int64]
        do { revisions = try await coordinator.fleetRevisions() } catch {
            reportProblem("reading the fleet revisions failed: \(error); retried next round")
            return
        }
        for (account, revision) in revisions.sorted(by: { $0.key < $1.key }) where knownRevisions[account] != revision {
            await accounts.tenant(account)?.service.fleetRevisionSeen(revision)
        }
        knownRevisions = revisions
        knownRevisionSum = sum
    }

    /// Opens the accounts made elsewhere and stops the ones revoked, until none is owed (run by the
    /// catch-ups only, so one at a time).
    private func refreshAccounts() async {
        isRefreshingAccounts = true
        defer { isRefreshingAccounts = false }
        while isAccountsRefreshOwed {
            isAccountsRefreshOwed = false
            let before = Set(accounts.allTenants.map(\.account))
            do { try await accounts.refresh() } catch {
                reportProblem("reading the accounts failed: \(error); retried next round")
                accountsStamp = -1
            }
            let after = Set(accounts.allTenants.map(\.account))
            // Accounts come and go rarely (made or revoked on some instance): each change is worth a line.
            for account in after.subtracting(before).sorted() { reportProblem("serving account \(account) (made elsewhere)") }
            for account in before.subtracting(after).sorted() { reportProblem("stopped serving account \(account) (revoked)") }
        }
    }

    // MARK: notices

    private func runNotices() async {
        for await notice in coordinator.notices() {
            switch notice {
            case .fleetChanged(let account): await accounts.tenant(account)?.service.fleetChangeNoticed()
            case .inboxPosted(let device): await accounts.tenant(device.account)?.service.inboxNoticed(device.device)
            case .accountsChanged:
                isAccountsRefreshOwed = true
                catchUp.notify()
            case .resumed:
                // Anything said meanwhile is lost: the next round reads it all again.
                knownRevisionSum = -1
                accountsStamp = -1
            }
        }
    }

    // MARK: handover

    /// Gives every lease up (SIGTERM): the other instances take the devices at their next round instead of
    /// waiting for the leases to expire.
    /// - Returns: how many devices were handed over (nil when the release failed).
    public func handOver() async -> Int? {
        leases.invalidate()
        var count = 0
        for tenant in accounts.allTenants { count += await tenant.service.releaseAllLeases() }
        held = [:]
        do { try await coordinator.releaseAll() } catch {
            reportProblem("giving the leases up failed: \(error); they expire in \(ttl) s")
            return nil
        }
        return count
    }

    static func grouped(_ devices: some Sequence<LeasedDevice>) -> [AccountID: Set<DeviceID>] {
        devices.reduce(into: [:]) { $0[$1.account, default: []].insert($1.device) }
    }

    /// A few devices, or how many when there are many (a line per lease move stays short at 10,000).
    static func listed(_ devices: Set<LeasedDevice>) -> String {
        devices.count <= 5 ? "[\(devices.sorted().map(\.description).joined(separator: ", "))]" : "\(devices.count) devices"
    }
}
