import FleetCore

extension Watcher {
    /// One tick: reduce the fleet (only when it changed) and walk the decision table for every device.
    mutating func tick(_ fleet: FleetSnapshot, now: UnixTime) -> [WatcherEffect] {
        guard isLoaded else { return [] }
        var effects = refreshViews(fleet, now: now)
        for deviceId in sortedDevices {
            let hiddenDirs = boxes[deviceId]!.record.profile.hiddenDirs
            let view = cache.view(for: hiddenDirs, since: since, guards: guards)
            effects += decide(deviceId, view: view, now: now)
        }
        return effects
    }

    /// Re-reduces when the sessions or the set of down hosts changed; keeps the sticky baselines.
    private mutating func refreshViews(_ fleet: FleetSnapshot, now: UnixTime) -> [WatcherEffect] {
        let downHosts = fleet.downHosts(at: now)
        let key = FleetViewCache.Key(revision: fleet.revision, downHosts: downHosts)
        guard cache.key != key else { return [] }
        let sessions = fleet.fleetSessions(downHosts: downHosts)
        let full = FleetReducer.reduce(sessions, previousSince: since, now: now, guards: guards)
        var changed: SinceMap = [:]
        for (sid, entry) in full.since where since[sid] != entry { changed[sid] = entry }
        let removed = since.keys.filter { full.since[$0] == nil }.sorted()
        since = full.since
        cache = FleetViewCache(key: key, sessions: sessions, views: [[]: FleetView(full)], reducedAt: now)
        guard !changed.isEmpty || !removed.isEmpty else { return [] }
        return [.saveSince(changed: changed, removed: removed)]
    }

    /// The section-6 decision table for one device.
    ///
    /// The box is written back only when this tick changed it, so a tick over an unchanged fleet copies nothing.
    private mutating func decide(_ deviceId: DeviceID, view: FleetView, now: UnixTime) -> [WatcherEffect] {
        var box = boxes[deviceId]!
        // A push for this card is in flight; its answer decides what the card holds.
        guard box.pending == nil else { return [] }
        let before = (box.noTokensLogged, box.endGate, box.record.isVetoLogged, box.startHeldSince)
        defer {
            if box.pending != nil
                || before != (box.noTokensLogged, box.endGate, box.record.isVetoLogged, box.startHeldSince)
            {
                boxes[deviceId] = box
            }
        }
        var content = view.contentState
        content.updatedAt = now

        guard let card = box.record.card else {
            guard view.activeTotal > 0 else {
                box.startHeldSince = nil
                return []
            }
            // Phone ends card -> server push-starts a replacement -> phone ends that too, 27-102 times a
            // day, stacking stale cards (guard `start-veto`). Holds until some active sid is new.
            if guards.isOn(.startVeto), let veto = box.record.veto, view.activeSids.isSubset(of: veto) {
                guard !box.record.isVetoLogged else { return [] }
                box.record.isVetoLogged = true
                let line = DecisionLogLine.startVetoed(
                    at: now, deviceId: deviceId, veto: Array(veto), active: view.activeTotal)
                return [.log(line), .saveDevice(deviceId, box.record)]
            }
            if let held = holdStart(&box, deviceId: deviceId, view: view, now: now) { return held }
            return send(.start, content: content, dismissalDate: nil, box: &box, deviceId: deviceId, now: now)
        }
        box.startHeldSince = nil

        // Zero versus unknown: a count with a known-down host in it is unknown, and must never end
        // or zero the card (the server's half of guard `end-gate-trust`).
        let verdict = EndGate(hold: 0).step(
            &box.endGate, activeTotal: view.activeTotal, isTrustworthy: view.isTrustworthy, now: now,
            guards: guards)
        if view.activeTotal == 0 {
            guard verdict == .end else { return [] }
            return send(.end, content: .zeroed(at: now), dismissalDate: now, box: &box, deviceId: deviceId, now: now)
        }
        if card.contentState.isSame(as: content, guards: guards) {
            box.noTokensLogged = nil
            return []
        }
        return send(.update, content: content, dismissalDate: nil, box: &box, deviceId: deviceId, now: now)
    }

    /// Addresses `action` to every token that can carry it. With none, the decision is still logged
    /// (`decide` with `tokens: 0`, then `no-tokens`, contract section 7), once per action, not every tick.
    private mutating func send(
        _ action: PushAction, content: ContentState, dismissalDate: UnixTime?, box: inout FleetBox,
        deviceId: DeviceID, now: UnixTime
    ) -> [WatcherEffect] {
        let kind: TokenKind = action == .start ? .pushToStart : .update
        let targets = box.record.tokens.of(kind).map(\.target)
        guard !targets.isEmpty else {
            guard box.noTokensLogged != action else { return [] }
            box.noTokensLogged = action
            return [
                .log(.decide(at: now, deviceId: deviceId, action: action, tokens: 0, content: content)),
                .log(.noTokens(at: now, deviceId: deviceId, action: action)),
            ]
        }
        box.noTokensLogged = nil
        let batch = PushBatch(
            id: makeBatchId(), deviceId: deviceId, action: action, contentState: content,
            dismissalDate: dismissalDate, targets: targets, decidedAt: now)
        box.pending = PendingPush(batch: batch, generation: box.generation)
        let decide = DecisionLogLine.decide(
            at: now, deviceId: deviceId, action: action, tokens: targets.count, content: content)
        return [.log(decide), .send(batch)]
    }
}
