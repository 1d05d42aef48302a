import FleetCore
import Foundation
import HTTPTypes

extension ControlPlaneService {
    // MARK: sessions and hosts

    /// Every session that is not archived, in sid order, with its display state.
    public func sessions() -> [SessionListing] {
        let instant = listingInstant()
        // The ids sorted, not the (id, report) pairs: moving whole reports about was most of the sort's cost.
        let sessions = fleet.sessions
        return sessions.keys.sorted().compactMap { sid in sessions[sid].flatMap { listed(sid, $0, at: instant) } }
    }

    /// The one listing of a session as this server sees it now: down hosts and the silence rule applied.
    /// - Parameter listing: the instant and the hosts down then, when the caller lists several sessions at once
    ///   (one clock read and one set of down hosts for all of them); nil: now.
    func listed(_ sid: SessionID, _ report: SessionReport, at listing: ListingInstant? = nil) -> SessionListing? {
        let instant = listing ?? listingInstant()
        return SessionListing(
            sid: sid, report: report, downHosts: instant.downHosts, heardAt: fleet.heardAt[sid],
            silence: dependencies.policy.silence, now: instant.now, since: watcher.since[sid])
    }

    /// When sessions are listed, and which hosts are down then.
    struct ListingInstant {
        var now: UnixTime
        var downHosts: Set<HostID>
    }

    /// Now, for ``listed(_:_:at:)``.
    func listingInstant() -> ListingInstant {
        let now = now
        return ListingInstant(now: now, downHosts: fleet.downHosts(at: now))
    }

    /// Replaces a session's report (`PUT`); returns it as listed.
    ///
    /// `seq` is the report's `LFG-Report-Seq`: a report older than the last one taken for the session
    /// (a resend that arrived late) changes nothing and answers the session as it is.
    @discardableResult
    public nonisolated func putSession(_ sid: SessionID, _ report: SessionReport, seq: Int? = nil) async throws(ServiceError)
        -> SessionListing
    {
        try await changeSession(.init(sid: sid, seq: seq) { _ in report })
    }

    /// Changes a session's existing report with `patch` (`PATCH`); a 404 when unknown.
    public func patchSession(
        _ sid: SessionID, _ patch: @escaping @Sendable (SessionReport) throws(InputError) -> SessionReport
    ) async throws(ServiceError) -> SessionListing {
        // Sharing a database, the session may have been reported through another instance a moment ago.
        if fleet.sessions[sid] == nil { await catchUpWithFleet() }
        return try await changeSession(.init(sid: sid, seq: nil) { (current: SessionReport?) throws(ServiceError) in
            guard let current else { throw .notFound("no session '\(sid)'") }
            do throws(InputError) { return try patch(current) } catch { throw .invalid(error) }
        })
    }

    /// `report` as a `PUT` or `PATCH` answers it: as listed now, or, when archived (listed nowhere), idle.
    func listing(_ sid: SessionID, _ report: SessionReport, at instant: ListingInstant? = nil) -> SessionListing {
        listed(sid, report, at: instant) ?? SessionListing(sid: sid, report: report, displayState: .idle)
    }

    /// Removes a session at once (`DELETE`); a 404 when unknown.
    public func deleteSession(_ sid: SessionID) async throws(ServiceError) {
        if fleet.sessions[sid] == nil { await catchUpWithFleet() }
        await acquire()
        defer { release() }
        guard fleet.sessions[sid] != nil else { throw .notFound("no session '\(sid)'") }
        var book = questions
        var cancelled = book.promptReported(sid, nil, isSessionGone: true, at: now)
        do { try await dependencies.store.commit([.deleteSession(sid)] + cancelled.writes) } catch {
            // Sharing a database: its question was settled elsewhere first; take it as stored and delete again.
            guard await !adoptQuestionsSettledElsewhere(error).isEmpty else { throw .store(error) }
            book = questions
            cancelled = book.promptReported(sid, nil, isSessionGone: true, at: now)
            do { try await dependencies.store.commit([.deleteSession(sid)] + cancelled.writes) } catch { throw .store(error) }
        }
        fleet.remove(sid)
        reportSeqs[sid] = nil
        questions = book
        await carryOut(cancelled)
        publishSession(sid, listing: nil)
        noteChange()
        noteWidgetChange()
    }

    /// A host's heartbeat: silent past `ttlSeconds`, it is known down and its sessions read `unknown`.
    public func heartbeat(_ host: HostID, ttlSeconds: Double) async throws(ServiceError) {
        await acquire()
        defer { release() }
        let heartbeat = HostHeartbeat(lastSeen: now, ttlSeconds: ttlSeconds)
        do { try await dependencies.store.commit([.putHost(host, heartbeat)]) } catch { throw .store(error) }
        fleet.heartbeat(host, heartbeat)
        noteChange()
    }

    /// Publishes the `session` event; `listing` (nil: the session is gone) is made only when a stream listens.
    func publishSession(_ sid: SessionID, listing: @autoclosure () -> SessionListing?) {
        struct Removed: Encodable {
            var sid: SessionID
            var deleted = true
        }
        events.publish("session") {
            let data = listing().map { try? WireJSON.encode($0) } ?? (try? WireJSON.encode(Removed(sid: sid)))
            return data ?? Data("{}".utf8)
        }
    }

    // MARK: devices and tokens

    /// `PUT /api/devices/{deviceId}`: its profile, its push-to-start token and its app's foreground state
    /// if it sent them, in one commit.
    public func reportDevice(
        _ deviceId: DeviceID, _ profile: DeviceProfile, pushToStartToken: String?, appState: DeviceAppState? = nil,
        sealKey: String? = nil
    ) async throws(ServiceError) {
        var profile = profile
        // A new key replaces the old one; a PUT without one leaves the device with none (the PUT is the whole
        // profile). Checked before anything changes, so a bad key changes nothing.
        if let sealKey {
            do {
                profile.sealKey = try dependencies.alertSealing.sealKey(base64: sealKey)
            } catch {
                throw .invalid(InputError(field: "sealKey", message: error.message))
            }
        }
        let at = now
        var events: [WatcherEvent] = [.deviceReported(deviceId, profile, at: at)]
        if let appState { events.append(.appStateReported(deviceId, appState, at: at)) }
        if let token = pushToStartToken, let env = profile.env {
            events.append(.tokenRegistered(deviceId, .pushToStart, env, hex: token, at: at))
        }
        try await handle(events)
    }

    /// A start-token or update-token registration (`hex` validated and lower-case).
    public func registerToken(_ deviceId: DeviceID, _ kind: TokenKind, env: PushEnvironment, hex: String)
        async throws(ServiceError)
    {
        try await handle([.tokenRegistered(deviceId, kind, env, hex: hex, at: now)])
    }

    /// `POST /api/push/live-activity/ended`: forget the card and record the veto population, persisted at once.
    public func reportEnded(_ deviceId: DeviceID) async throws(ServiceError) {
        try await handle([.endedReported(deviceId, at: now)])
    }

    func handle(_ events: [WatcherEvent]) async throws(ServiceError) {
        if try await queueForOwner(events) { return }
        await acquire()
        let outgoing: Outgoing
        do { outgoing = try await apply(events) } catch {
            release()
            throw .store(error)
        }
        release()
        noteChange()
        // Channel deletions of a deleted device leave at once (outside the lock, like every push).
        await deliver(outgoing)
    }

    // MARK: reading

    /// The watcher's view of every device of the account (`GET /api/push/live-activity/state`): the devices
    /// this instance drives from memory, and, when several instances share the database, the others' as
    /// stored (``devicesElsewhere(among:)``), each with the instance driving it.
    public func liveActivityState() async -> LiveActivityState {
        let (elsewhere, elsewhereError) = await devicesElsewhereListed()
        // Read after the store: a device this instance took meanwhile is listed as it is here now.
        let reason = pushGateReason
        let instance = dependencies.coordinator?.shared.instance
        var sinceByFilter: [HiddenDirs: SinceMap] = [:]
        var devices = watcher.deviceIds.map {
            stateEntry($0, watcher.boxes[$0]!.record, drivenBy: instance, sinceByFilter: &sinceByFilter)
        }
        for (deviceId, record) in elsewhere.records where watcher.boxes[deviceId] == nil {
            devices.append(stateEntry(deviceId, record, drivenBy: elsewhere.drivers[deviceId], sinceByFilter: &sinceByFilter))
        }
        if !elsewhere.records.isEmpty { devices.sort { $0.deviceId.rawValue < $1.deviceId.rawValue } }
        var state = LiveActivityState(
            enabled: reason == nil, reason: reason, devices: devices,
            decisionLogUnwrittenLines: dependencies.decisionLog.unwrittenLines,
            unrecordedAnswerCommits: unrecordedAnswerCommits)
        if dependencies.coordinator != nil {
            state.devicesNotListed = elsewhere.notRead
            state.devicesElsewhereError = elsewhereError
        }
        return state
    }

    /// One device's state entry; `sinceByFilter` keeps the `since` baselines filtered once per distinct
    /// hidden folders across one listing.
    func stateEntry(
        _ deviceId: DeviceID, _ record: DeviceRecord, drivenBy: InstanceID?, sinceByFilter: inout [HiddenDirs: SinceMap]
    ) -> LiveActivityState.Device {
        var card: LiveActivityState.Card?
        if let current = record.card {
            let hidden = record.profile.hiddenDirs
            let since = sinceByFilter[hidden] ?? watcher.since.filter { sid, _ in
                fleet.sessions[sid].map { !hidden.hides($0.cwd) } ?? false
            }
            sinceByFilter[hidden] = since
            card = LiveActivityState.Card(
                contentState: current.contentState, since: since, startedAt: current.startedAt, origin: current.origin)
        }
        let mode = watcher.mode(of: record)
        return LiveActivityState.Device(
            deviceId: deviceId, env: record.profile.env, card: card, veto: record.veto.map { $0.sorted() },
            tokens: LiveActivityState.TokenCounts(
                pushToStart: record.tokens.of(.pushToStart).count, update: record.tokens.of(.update).count),
            mode: mode, channel: mode == .channel ? record.channel.current?.shortId : nil,
            privacy: record.profile.isPrivate(byDefault: dependencies.policy.privacyByDefault),
            sealKeyId: record.profile.sealKey?.keyID, drivenBy: drivenBy)
    }

    /// Every registered token of the account's devices, first 8 hex characters only
    /// (`GET /api/push/live-activity/tokens`): the devices this instance drives from memory, and, when
    /// several instances share the database, the others' as stored (``devicesElsewhere(among:)``), each
    /// with the instance driving it.
    public func tokenList() async -> TokenList {
        let (elsewhere, elsewhereError) = await devicesElsewhereListed()
        // Read after the store: a device this instance took meanwhile is listed as it is here now.
        let instance = dependencies.coordinator?.shared.instance
        var devices = watcher.deviceIds.map { ($0, watcher.boxes[$0]!.record, instance) }
        for (deviceId, record) in elsewhere.records where watcher.boxes[deviceId] == nil {
            devices.append((deviceId, record, elsewhere.drivers[deviceId]))
        }
        if !elsewhere.records.isEmpty { devices.sort { $0.0.rawValue < $1.0.rawValue } }
        var list = TokenList(tokens: devices.flatMap { deviceId, record, drivenBy in
            record.tokens.map {
                TokenListing(
                    deviceId: deviceId, kind: $0.kind, env: $0.env, token: $0.shortHex, registeredAt: $0.registeredAt,
                    drivenBy: drivenBy)
            }
        })
        if dependencies.coordinator != nil {
            list.devicesNotListed = elsewhere.notRead
            list.devicesElsewhereError = elsewhereError
        }
        return list
    }

    /// The tokens of ``tokenList()`` alone (the dashboard's).
    public func tokenListings() async -> [TokenListing] { await tokenList().tokens }

    /// The last `limit` decision-log lines (JSON text), oldest first.
    public func recentDecisionLog(limit: Int) -> [String] { Array(recentLog.suffix(max(0, limit))) }

    /// The card history, newest first.
    public func cardHistory(deviceId: DeviceID?, limit: Int) async throws(ServiceError) -> [CardHistoryRecord] {
        do { return try await dependencies.store.history(deviceId: deviceId, limit: limit) } catch { throw .store(error) }
    }

    /// A copy of the watcher as it is now (tests, diagnostics).
    public var watcherSnapshot: Watcher { watcher }
}
