import FleetCore

/// What an account's service on an instance sharing a database knows about its share of the devices.
struct CoordinationState {
    /// The account's devices this instance holds leases on (and so drives).
    var held: Set<DeviceID> = []
    /// Devices claimed by their first registration, with the lease round running when they were: a round
    /// that started before the claim may not list them, yet they are held.
    var claims: [DeviceID: Int] = [:]
    /// The account's fleet revision as last loaded (-1: never).
    var fleetRevision: Int64 = -1
    /// Held devices whose records are owed a load (a round gained them): the follow-up loads them.
    var owedTakeover: Set<DeviceID> = []
    /// Devices whose records are being loaded now (not owed again meanwhile).
    var loading: Set<DeviceID> = []
    /// Queued device writes may be waiting for a held device: the follow-up drains the inbox.
    var isInboxDrainRequested = false
    var isDrainingInbox = false
    var isInboxDrainOwed = false
    var isReloadingFleet = false
    var isFleetReloadOwed = false
    /// Callers of ``ControlPlaneService/catchUpWithFleet()`` waiting for the reload running now to end.
    var fleetReloadWaiters: [CheckedContinuation<Void, Never>] = []
}

/// Several `lfg serve` instances on one database (contract 8.4): each device is driven by the instance
/// holding its lease (the ``LeaseDirector`` runs the rounds for every account and tells this account's
/// service when its share changed); the device writes another instance takes are queued for it; the
/// account's shared fleet (sessions, hosts) is reloaded when another instance changes it.
extension ControlPlaneService {
    /// The share of the lease time an instance trusts its leases for, so it stops pushing before another
    /// instance can possibly take a device over (clocks on both sides run at about the same rate).
    public static let leaseTrust = 0.8

    /// How many devices taken over are loaded per store read (one query for the lot, not two per device).
    static let takeoverBatch = 500

    /// Whether this instance may push now: alone, always; sharing a database, while its leases are fresh.
    var holdsFreshLeases: Bool {
        guard let coordinator = dependencies.coordinator else { return true }
        return now < coordinator.leases.validUntil
    }

    /// The devices this instance drives now (every device when alone).
    public var heldDevices: Set<DeviceID> {
        dependencies.coordinator == nil ? Set(watcher.deviceIds) : coordination.held
    }

    /// A whole-list write of retired channels becomes a write of this instance's devices' channels only,
    /// so instances never overwrite each other's lists.
    func scopedToHeldDevices(_ write: StoreWrite) -> StoreWrite {
        guard case .putRetiredChannels(let channels) = write else { return write }
        let devices = Set(watcher.retiredChannels.map(\.deviceId)).union(channels.map(\.deviceId))
        return .putRetiredChannelsOf(devices: devices, channels: channels)
    }

    /// Whether this account has `deviceId` and another instance drives it (or none yet): its writes go to
    /// the owner's inbox. A device the account does not have is nobody's (a 404, whoever asks).
    func isDrivenElsewhere(_ deviceId: DeviceID) async throws(ServiceError) -> Bool {
        guard let coordinator = dependencies.coordinator, !coordination.held.contains(deviceId) else { return false }
        do { return try await coordinator.shared.isKnown(LeasedDevice(coordinator.account, deviceId)) } catch {
            throw .store(error)
        }
    }

    // MARK: what the lease director tells this account

    /// A lease round changed this account's share: `held` is every device of the account this instance
    /// holds now, `gained` those claimed in the round (their records are loaded by the follow-up).
    /// - Returns: how many devices were lost (held before, neither given up nor held now).
    @discardableResult
    public func leaseShareChanged(held: Set<DeviceID>, gained: Set<DeviceID>, round: Int) async -> Int {
        await acquire()
        // Claimed by a first registration while the round ran: held, whatever the round read.
        let claimedMeanwhile = Set(coordination.claims.filter { $0.value >= round }.keys)
        coordination.claims = coordination.claims.filter { $0.value >= round }
        let lost = coordination.held.subtracting(held).subtracting(claimedMeanwhile)
        watcher.releaseDevices(lost)
        coordination.held = held.union(claimedMeanwhile)
        release()
        // Gained now, or held without being driven (an earlier load failed): load their stored records.
        let driven = Set(watcher.deviceIds)
        let toLoad = gained.union(held.subtracting(driven).subtracting(claimedMeanwhile))
        coordination.owedTakeover.formUnion(toLoad.subtracting(coordination.loading))
        if !coordination.owedTakeover.isEmpty { leaseFollowUp.notify() }
        return lost.count
    }

    /// Stops driving those of `devices` with nothing in flight (the director gives their leases up next).
    /// - Returns: the devices stopped.
    public func shed(_ devices: Set<DeviceID>) async -> Set<DeviceID> {
        let settled = devices.filter { watcher.isSettled($0) }
        guard !settled.isEmpty else { return [] }
        await acquire()
        watcher.releaseDevices(settled)
        coordination.held.subtract(settled)
        release()
        return settled
    }

    /// Another instance changed this account's fleet (its notification arrived): read what changed.
    public func fleetChangeNoticed() { fleetFollowUp.notify() }

    /// A lease round read this account's fleet revision: reload if it is not the one loaded (a missed notification).
    public func fleetRevisionSeen(_ revision: Int64) {
        if revision != coordination.fleetRevision { fleetFollowUp.notify() }
    }

    /// A device write was queued for `deviceId` (nil: for some device this instance may hold).
    public func inboxNoticed(_ deviceId: DeviceID?) {
        guard deviceId.map(coordination.held.contains) ?? !coordination.held.isEmpty else { return }
        coordination.isInboxDrainRequested = true
        leaseFollowUp.notify()
    }

    /// Stops driving every device (SIGTERM: the director gives every lease up next).
    /// - Returns: how many were driven.
    public func releaseAllLeases() async -> Int {
        await acquire()
        let count = coordination.held.count
        watcher.releaseDevices(coordination.held)
        coordination.held = []
        release()
        return count
    }

    // MARK: follow-ups

    /// Loads the devices gained and applies queued writes, each time the director asks, until cancelled.
    func runLeaseFollowUps() async {
        while !Task.isCancelled {
            await leaseFollowUp.wait()
            if Task.isCancelled { return }
            await followUpLeaseRound()
        }
    }

    /// Reads the fleet changes the other instances made, each time one is noticed, until cancelled (apart
    /// from the takeover loads, so a takeover never delays the changes reaching this instance).
    func runFleetFollowUps() async {
        while !Task.isCancelled {
            await fleetFollowUp.wait()
            if Task.isCancelled { return }
            await reloadFleet()
        }
    }

    /// Loads the devices gained (in batches), then applies queued writes.
    func followUpLeaseRound() async {
        guard let coordinator = dependencies.coordinator else { return }
        let toLoad = coordination.owedTakeover.intersection(coordination.held)
        coordination.owedTakeover = []
        if !toLoad.isEmpty {
            coordination.loading.formUnion(toLoad)
            for batch in toLoad.sorted().chunked(into: Self.takeoverBatch) { await takeOver(Set(batch), coordinator) }
            coordination.loading.subtract(toLoad)
        }
        // Gained devices may have writes queued for their dead owner (an /ended must not be lost).
        if !toLoad.isEmpty || coordination.isInboxDrainRequested {
            coordination.isInboxDrainRequested = false
            await drainInbox()
        }
        if !toLoad.isEmpty { noteChange() }
    }

    /// Loads the stored records of devices just claimed (and the channels they retired) and starts driving them.
    private func takeOver(_ devices: Set<DeviceID>, _ coordinator: AccountCoordinator) async {
        let loaded: TakenOverDevices
        do { loaded = try await coordinator.shared.loadDevices(devices, account: coordinator.account) } catch {
            dependencies.reportProblem("loading \(devices.count) devices taken over failed: \(error); retried next round")
            // Not driven until loaded: give them back so a round (here or elsewhere) loads them properly.
            giveBack(devices, coordinator)
            return
        }
        await acquire()
        // Rounds went on while they loaded: drive only what is still held (a device shed or lost meanwhile
        // belongs to another instance now).
        let stillHeld = loaded.records.filter { coordination.held.contains($0.key) }
        // A killed instance's retired channels are deleted by whoever takes their devices.
        let retired = loaded.retiredChannels.filter { coordination.held.contains($0.deviceId) }
        do { _ = try await apply([.loaded(devices: stillHeld, since: [:], retiredChannels: retired, at: now)]) } catch {
            dependencies.reportProblem("taking over \(devices.count) devices failed: \(error); retried next round")
            giveBack(devices, coordinator)
        }
        release()
    }

    private func giveBack(_ devices: Set<DeviceID>, _ coordinator: AccountCoordinator) {
        coordination.held.subtract(devices)
        coordinator.leases.requestRelease(devices.map { LeasedDevice(coordinator.account, $0) })
    }

    // MARK: the inbox and the fleet

    /// Applies every queued write for the held devices, then deletes them. One drain at a time; a request
    /// arriving meanwhile is run once more after it.
    func drainInbox() async {
        guard let coordinator = dependencies.coordinator else { return }
        guard !coordination.isDrainingInbox else {
            coordination.isInboxDrainOwed = true
            return
        }
        coordination.isDrainingInbox = true
        defer { coordination.isDrainingInbox = false }
        repeat {
            coordination.isInboxDrainOwed = false
            do {
                let entries = try await coordinator.shared.takeInbox(for: coordination.held, account: coordinator.account)
                guard !entries.isEmpty else { continue }
                let events = entries.compactMap { entry in
                    coordination.held.contains(entry.event.deviceId) ? entry.event.watcherEvent : nil
                }
                await acquire()
                let outgoing: Outgoing
                do { outgoing = try await apply(events) } catch {
                    release()
                    throw error
                }
                release()
                // Applied and committed; deleting them is safe to repeat (applying one twice changes nothing more).
                try await coordinator.shared.deleteInbox(entries.map(\.id))
                noteChange()
                await deliver(outgoing)
            } catch {
                dependencies.reportProblem("applying queued device writes failed: \(error); retried next round")
            }
        } while coordination.isInboxDrainOwed
    }

    /// Brings the sessions, hosts and questions up to the shared store's: the other instances' changes since
    /// the last load, or everything when those are no longer known; tells `/api/events` what changed.
    func reloadFleet() async {
        guard let coordinator = dependencies.coordinator else { return }
        guard !coordination.isReloadingFleet else {
            coordination.isFleetReloadOwed = true
            return
        }
        coordination.isReloadingFleet = true
        defer {
            coordination.isReloadingFleet = false
            let waiters = coordination.fleetReloadWaiters
            coordination.fleetReloadWaiters = []
            for waiter in waiters { waiter.resume() }
        }
        repeat {
            coordination.isFleetReloadOwed = false
            // Read under the lock: a change of this instance's own committed between the read and applying
            // it would otherwise be overwritten by the older picture read before it (and, its own write being
            // left out of later reads, never corrected).
            await acquire()
            do {
                let since = coordination.fleetRevision
                if since >= 0,
                    let changes = try await coordinator.shared.loadFleetChanges(account: coordinator.account, since: since)
                {
                    await applyFleetChanges(changes)
                } else {
                    await replaceFleet(try await coordinator.shared.loadFleet(account: coordinator.account))
                }
            } catch {
                dependencies.reportProblem("reloading the shared fleet failed: \(error); retried next round")
            }
            release()
        } while coordination.isFleetReloadOwed
    }

    /// The other instances' changes, each as if reported here: heard now, even when its report did not
    /// change (an agent that keeps reporting the same state is not silent, whichever instance it reaches).
    /// Hold the lock.
    private func applyFleetChanges(_ changes: FleetChanges) async {
        let before = changes.sessions.keys.reduce(into: [SessionID: SessionReport]()) { $0[$1] = fleet.sessions[$1] }
        let heardAt = now
        for (sid, report) in changes.sessions {
            if let report { fleet.put(sid, report, heardAt: heardAt) } else { fleet.remove(sid) }
        }
        for case (let host, let heartbeat?) in changes.hosts { fleet.heartbeat(host, heartbeat) }
        coordination.fleetRevision = max(coordination.fleetRevision, changes.revision)
        await adoptQuestions(changes.questions)
        guard !changes.sessions.isEmpty || !changes.hosts.isEmpty else { return }
        publishChanges(from: before, to: changes.sessions.compactMapValues { $0 })
        noteChange()
    }

    /// The whole shared fleet, replacing this instance's picture of it. Hold the lock.
    private func replaceFleet(_ loaded: (contents: StoreContents, revision: Int64)) async {
        let contents = loaded.contents
        let before = fleet
        // Changed as if reported here: the revision moves on and a changed session counts as heard now
        // (the silence rule), while an unchanged one keeps when it was last heard.
        let heardAt = now
        for (sid, report) in contents.sessions where before.sessions[sid] != report {
            fleet.put(sid, report, heardAt: heardAt)
        }
        for sid in before.sessions.keys where contents.sessions[sid] == nil { fleet.remove(sid) }
        for (host, heartbeat) in contents.hosts where before.hosts[host] != heartbeat { fleet.heartbeat(host, heartbeat) }
        coordination.fleetRevision = loaded.revision
        // Questions gone from the store were forgotten there.
        let gone = questions.questions.mapValues { _ -> Question? in nil }
        await adoptQuestions(gone.merging(contents.questions.mapValues { $0 }) { _, stored in stored })
        publishChanges(from: before.sessions, to: contents.sessions)
        noteChange()
    }

    private func publishChanges(from before: [SessionID: SessionReport], to after: [SessionID: SessionReport]) {
        let down = fleet.downHosts(at: now)
        for sid in Set(before.keys).union(after.keys).sorted() where before[sid] != after[sid] {
            publishSession(sid, listing: after[sid].flatMap { SessionListing(sid: sid, report: $0, downHosts: down) })
        }
    }

    // MARK: device writes

    /// Queues `events` for the device's owner when another instance drives it; false when this instance
    /// drives it (or just claimed it as a new device) and must apply them itself.
    func queueForOwner(_ events: [WatcherEvent]) async throws(ServiceError) -> Bool {
        guard let coordinator = dependencies.coordinator,
            let deviceId = events.lazy.compactMap(DeviceInboxEvent.deviceId(of:)).first,
            !coordination.held.contains(deviceId)
        else { return false }
        do {
            if try await coordinator.shared.claimNew(LeasedDevice(coordinator.account, deviceId), ttl: dependencies.leaseTTL) {
                coordination.held.insert(deviceId)
                // Read after the claim: a round that started before it committed has this number or a later one.
                coordination.claims[deviceId] = coordinator.leases.round
                coordinator.leases.noteClaimed()
                return false
            }
            try await coordinator.shared.post(events.compactMap(DeviceInboxEvent.init), account: coordinator.account)
        } catch { throw .store(error) }
        return true
    }
}
