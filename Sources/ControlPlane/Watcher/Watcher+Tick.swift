import APNs
import FleetCore

extension Watcher {
    /// One tick: reduce the fleet (only when it changed) and walk the decision table for every device.
    mutating func tick(_ fleet: FleetSnapshot, now: UnixTime) -> [WatcherEffect] {
        guard isLoaded else { return [] }
        var effects = refreshViews(fleet, now: now)
        effects += retryChannelDeletions(now: now)
        for deviceId in sortedDevices {
            let hiddenDirs = boxes[deviceId]!.record.profile.hiddenDirs
            let view = cache.view(for: hiddenDirs, since: since, guards: guards, silence: policy.silence)
            effects += decide(deviceId, view: view, now: now)
        }
        return effects
    }

    /// Re-reduces when the sessions, the set of down hosts or the set of quiet sessions changed; keeps the
    /// sticky baselines.
    private mutating func refreshViews(_ fleet: FleetSnapshot, now: UnixTime) -> [WatcherEffect] {
        let downHosts = fleet.downHosts(at: now)
        let quiet = fleet.quietSessions(at: now, silence: policy.silence, downHosts: downHosts)
        let key = FleetViewCache.Key(revision: fleet.revision, downHosts: downHosts, quiet: quiet)
        guard cache.key != key else { return [] }
        let sessions = fleet.fleetSessions(downHosts: downHosts)
        let full = FleetReducer.reduce(sessions, previousSince: since, now: now, guards: guards, silence: policy.silence)
        var changed: SinceMap = [:]
        for (sid, entry) in full.since where since[sid] != entry { changed[sid] = entry }
        let removed = since.keys.filter { full.since[$0] == nil }.sorted()
        since = full.since
        cache = FleetViewCache(key: key, sessions: sessions, views: [[]: FleetView(full)], reducedAt: now)
        guard !changed.isEmpty || !removed.isEmpty else { return [] }
        return [.saveSince(changed: changed, removed: removed)]
    }

    /// The section-6 decision table for one device, plus token ageing, channel upkeep and renewal.
    ///
    /// The box is written back only when this tick changed it, so a tick over an unchanged fleet copies nothing.
    private mutating func decide(_ deviceId: DeviceID, view: FleetView, now: UnixTime) -> [WatcherEffect] {
        var box = boxes[deviceId]!
        // A push for this card is in flight; its answer decides what the card holds.
        guard box.pending == nil else { return [] }
        let before = box
        var effects = forgetAgedTokens(&box, deviceId: deviceId, now: now)
        effects += upkeepChannels(&box, deviceId: deviceId, now: now)
        if box.record.retiringCard != nil {
            effects += endRetiringCard(&box, deviceId: deviceId, now: now)
        } else {
            effects += repeatEnd(&box, deviceId: deviceId, now: now)
            if box.pending == nil { effects += decideCard(&box, deviceId: deviceId, view: view, now: now) }
        }
        if box != before {
            boxes[deviceId] = box
            if box.record != before.record { effects.append(.saveDevice(deviceId, box.record)) }
        }
        return effects
    }

    private mutating func decideCard(
        _ box: inout FleetBox, deviceId: DeviceID, view: FleetView, now: UnixTime
    ) -> [WatcherEffect] {
        // Privacy mode: the push carries counts, phases, ids and times only (contract 8.3).
        let words = box.record.profile.cardWords(privacyByDefault: policy.privacyByDefault)
        var content = view.contentState.carrying(words)
        content.updatedAt = now
        var effects: [WatcherEffect] = []
        if let card = box.record.card, guards.isOn(.renewal), now - card.startedAt >= CardPolicy.cardLifetimeSeconds {
            effects += expireCard(&box, deviceId: deviceId, now: now)
        }

        guard let card = box.record.card else {
            guard view.activeTotal > 0 else {
                box.startHeldSince = nil
                return effects
            }
            // Phone ends card -> server push-starts a replacement -> phone ends that too, 27-102 times a
            // day, stacking stale cards (guard `start-veto`). Holds until some active sid is new.
            if guards.isOn(.startVeto), let veto = box.record.veto, view.activeSids.isSubset(of: veto) {
                guard !box.record.isVetoLogged else { return effects }
                box.record.isVetoLogged = true
                let line = DecisionLogLine.startVetoed(
                    at: now, deviceId: deviceId, veto: Array(veto), active: view.activeTotal)
                return effects + [.log(line)]
            }
            if let held = holdStart(&box, deviceId: deviceId, view: view, now: now) { return effects + held }
            // A channel is being made for this device: a card started now would be a token card, the kind
            // an idle phone never hands the token of. Wait for the answer (it is one request away).
            if wantsChannel(box.record), box.record.channel.current == nil, box.isChannelRequested { return effects }
            let channel = startChannel(box.record)
            return effects + send(.start, content: content, box: &box, deviceId: deviceId, now: now, startChannel: channel)
        }
        box.startHeldSince = nil

        // Zero versus unknown: a count with a known-down host in it is unknown, and must never end
        // or zero the card (the server's half of guard `end-gate-trust`).
        let verdict = EndGate(hold: 0).step(
            &box.endGate, activeTotal: view.activeTotal, isTrustworthy: view.isTrustworthy, now: now,
            guards: guards)
        if view.activeTotal == 0 {
            guard verdict == .end else { return effects }
            return effects + send(.end, content: .zeroed(at: now), box: &box, deviceId: deviceId, now: now)
        }
        if guards.isOn(.renewal), now - card.startedAt >= policy.renewAfter {
            return effects + renew(&box, card: card, content: content, deviceId: deviceId, now: now)
        }
        // A worded local update the app made over our wordless push is no change (ContentState+Words).
        if card.contentState.isSame(as: content, words: words, guards: guards) {
            box.noTokensLogged = nil
            // A steady card is re-pushed before its stale date, so only a card nobody can reach reads stale.
            guard guards.isOn(.staleDate), let staleAt = card.staleAt, now >= staleAt - policy.staleRefreshLead else {
                return effects
            }
        }
        return effects + send(.update, content: content, box: &box, deviceId: deviceId, now: now)
    }
}
