import FleetCore

/// What an instance sharing a database knows about its share of the devices.
struct CoordinationState {
    /// The devices this instance holds leases on (and so drives).
    var held: Set<DeviceID> = []
    /// Until when (this instance's wall clock) its leases are surely valid: the last round's start plus the
    /// lease time, less a margin. Past it, it pushes nothing: another instance may own the devices by now.
    var leasesValidUntil: UnixTime = -.infinity
    /// The shared fleet's revision as last loaded (-1: never).
    var fleetRevision: Int64 = -1
    /// Held devices past the fair share, given up once nothing is in flight for them.
    var toShed: Set<DeviceID> = []
    /// Held devices whose records a lease round found not yet loaded: the follow-up loads them.
    var owedTakeover: Set<DeviceID> = []
    /// Devices whose records are being loaded now (not owed again meanwhile).
    var loading: Set<DeviceID> = []
    /// The fleet revision the last lease round read (the follow-up reloads when it differs).
    var roundFleetRevision: Int64 = -1
    var isDrainingInbox = false
    var isInboxDrainOwed = false
    var isReloadingFleet = false
    var isFleetReloadOwed = false
    /// Callers of ``ControlPlaneService/catchUpWithFleet()`` waiting for the reload running now to end.
    var fleetReloadWaiters: [CheckedContinuation<Void, Never>] = []
    /// Lease rounds that failed (the database unreachable): counted, and said on stderr.
    var failedRounds = 0
}

/// Several `lfg serve` instances on one database (contract 8.4): each device is driven by the one holding
/// its lease; the device writes another instance takes are queued for it; the shared fleet (sessions,
/// hosts) is reloaded when another instance changes it.
extension ControlPlaneService {
    /// The share of the lease time an instance trusts its leases for, so it stops pushing before another
    /// instance can possibly take a device over (clocks on both sides run at about the same rate).
    static let leaseTrust = 0.8

    /// Whether this instance may push now: alone, always; sharing a database, while its leases are fresh.
    var holdsFreshLeases: Bool { dependencies.coordinator == nil || now < coordination.leasesValidUntil }

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

    /// Whether another instance drives `deviceId` (or none yet): its writes go to the owner's inbox.
    func isDrivenElsewhere(_ deviceId: DeviceID) -> Bool {
        dependencies.coordinator != nil && !coordination.held.contains(deviceId)
    }

    // MARK: lease rounds

    /// Renews, claims and sheds leases every `leaseInterval` until cancelled, and beside it carries out
    /// what each round found to do (``followUpLeaseRound()``).
    ///
    /// Renewing never waits for that work: loading thousands of devices taken over, or a slow inbox, took
    /// longer than the lease time, and an instance taking over lost its own leases meanwhile.
    func runLeaseRounds() async {
        let clock = dependencies.clock
        await withDiscardingTaskGroup { group in
            group.addTask { await self.runLeaseFollowUps() }
            while !Task.isCancelled {
                await leaseRound()
                do { try await clock.sleep(for: dependencies.leaseInterval) } catch { break }
            }
            group.cancelAll()
        }
    }

    private func runLeaseFollowUps() async {
        while !Task.isCancelled {
            await leaseFollowUp.wait()
            if Task.isCancelled { return }
            await followUpLeaseRound()
        }
    }

    /// Loads the devices the rounds gained, applies queued writes, and reloads the fleet if a round saw
    /// a revision this instance has not loaded (a missed notification).
    func followUpLeaseRound() async {
        guard let coordinator = dependencies.coordinator else { return }
        let toLoad = coordination.owedTakeover.intersection(coordination.held)
        coordination.owedTakeover = []
        if !toLoad.isEmpty {
            coordination.loading.formUnion(toLoad)
            await takeOver(toLoad, coordinator)
            coordination.loading.subtract(toLoad)
        }
        await drainInbox()
        if coordination.roundFleetRevision != coordination.fleetRevision { await reloadFleet() }
        if !toLoad.isEmpty { noteChange() }
    }

    /// One round: shed what is over the fair share (settled devices only), renew, claim, and leave the
    /// gained devices, queued writes and a missed fleet change to the follow-up.
    func leaseRound() async {
        guard let coordinator = dependencies.coordinator else { return }
        let startedAt = now
        let shedding = coordination.toShed.filter { watcher.isSettled($0) }
        if !shedding.isEmpty {
            // Stop driving first: the lease is given up only once nothing here can push for them.
            await acquire()
            watcher.releaseDevices(shedding)
            coordination.held.subtract(shedding)
            release()
        }
        let heldBefore = coordination.held
        let round: LeaseRound
        do { round = try await coordinator.leaseRound(ttl: dependencies.leaseTTL, releasing: shedding) } catch {
            coordination.failedRounds += 1
            dependencies.reportProblem("lease round failed: \(error); pushing stops when the leases run out")
            return
        }
        coordination.toShed.subtract(shedding)
        metrics.leasesShed += shedding.count
        metrics.leasesGained += round.gained.count
        coordination.leasesValidUntil = startedAt + dependencies.leaseTTL * Self.leaseTrust
        // New devices claimed by their first registration while the round ran are held, whatever it read.
        let claimedMeanwhile = coordination.held.subtracting(heldBefore)
        let lost = heldBefore.subtracting(shedding).subtracting(round.held)
        metrics.leasesLost += lost.count
        if !lost.isEmpty {
            await acquire()
            watcher.releaseDevices(lost)
            release()
        }
        coordination.held = round.held.union(claimedMeanwhile)
        if !round.gained.isEmpty || !lost.isEmpty || !shedding.isEmpty {
            // Leases move rarely (start, a kill, a handover, rebalancing): each move is worth a line.
            dependencies.reportProblem(
                "leases: holding \(coordination.held.count) of fair share \(round.fairShare) (\(round.liveInstances) live); "
                    + "gained \(Self.listed(round.gained)), lost \(Self.listed(lost)), shed \(Self.listed(shedding))")
        }
        let excess = coordination.held.count - round.fairShare
        coordination.toShed = excess > 0 ? Set(coordination.held.sorted { $0.rawValue > $1.rawValue }.prefix(excess)) : []
        // Gained now, or held without being driven (an earlier load failed): load their stored records.
        let driven = Set(watcher.deviceIds)
        let toLoad = round.gained.union(round.held.subtracting(driven).subtracting(claimedMeanwhile))
        coordination.owedTakeover.formUnion(toLoad.subtracting(coordination.loading))
        coordination.roundFleetRevision = round.fleetRevision
        leaseFollowUp.notify()
    }

    /// A few device ids, or how many when there are many (a line per lease move stays short at 10,000).
    static func listed(_ devices: Set<DeviceID>) -> String {
        devices.count <= 5 ? "[\(devices.map(\.rawValue).sorted().joined(separator: ", "))]" : "\(devices.count) devices"
    }

    /// Loads the stored records of devices just claimed and starts driving them.
    private func takeOver(_ devices: Set<DeviceID>, _ coordinator: any FleetCoordinator) async {
        let records: [DeviceID: DeviceRecord]
        do { records = try await coordinator.loadDevices(devices) } catch {
            dependencies.reportProblem("loading \(devices.count) devices taken over failed: \(error); retried next round")
            // Not driven until loaded: give them back so a round (here or elsewhere) loads them properly.
            coordination.held.subtract(devices)
            coordination.toShed.formUnion(devices)
            return
        }
        await acquire()
        // Rounds went on while they loaded: drive only what is still held (a device shed or lost meanwhile
        // belongs to another instance now).
        let stillHeld = records.filter { coordination.held.contains($0.key) }
        do { _ = try await apply([.loaded(devices: stillHeld, since: [:], at: now)]) } catch {
            dependencies.reportProblem("taking over \(devices.count) devices failed: \(error); retried next round")
            coordination.held.subtract(devices)
            coordination.toShed.formUnion(devices)
        }
        release()
    }

    // MARK: notices and the inbox

    /// Acts on notifications from the other instances until cancelled.
    func runNotices(_ coordinator: any FleetCoordinator) async {
        for await notice in coordinator.notices() {
            switch notice {
            case .fleetChanged: await reloadFleet()
            case .inboxPosted(let deviceId): if coordination.held.contains(deviceId) { await drainInbox() }
            case .resumed:
                await reloadFleet()
                await drainInbox()
            }
        }
    }

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
                let entries = try await coordinator.takeInbox(for: coordination.held)
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
                try await coordinator.deleteInbox(entries.map(\.id))
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
                if since >= 0, let changes = try await coordinator.loadFleetChanges(since: since) {
                    await applyFleetChanges(changes)
                } else {
                    await replaceFleet(try await coordinator.loadFleet())
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
            if try await coordinator.claimNew(deviceId, ttl: dependencies.leaseTTL) {
                coordination.held.insert(deviceId)
                metrics.leasesGained += 1
                return false
            }
            try await coordinator.post(events.compactMap(DeviceInboxEvent.init))
        } catch { throw .store(error) }
        return true
    }

    /// Gives every lease up (SIGTERM): the other instances take the devices at their next round instead of
    /// waiting for the leases to expire.
    /// - Returns: how many devices were handed over (nil when this instance is alone or the release failed).
    @discardableResult
    public func handOver() async -> Int? {
        guard let coordinator = dependencies.coordinator else { return nil }
        await acquire()
        let count = coordination.held.count
        watcher.releaseDevices(coordination.held)
        coordination.held = []
        coordination.leasesValidUntil = -.infinity
        release()
        do { try await coordinator.releaseAll() } catch {
            dependencies.reportProblem("giving the leases up failed: \(error); they expire in \(dependencies.leaseTTL) s")
            return nil
        }
        return count
    }
}
