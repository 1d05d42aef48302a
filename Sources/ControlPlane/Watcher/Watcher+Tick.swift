import APNs
import FleetCore

extension Watcher {
    /// One tick: move the parts of the sessions that changed, then walk the decision table for the devices
    /// whose inputs changed (their view, an event, their own last decision) or whose timers are due.
    mutating func tick(_ fleet: FleetSnapshot, now: UnixTime) -> [WatcherEffect] {
        guard isLoaded else { return [] }
        var due = dirtyDevices
        dirtyDevices = []
        for deviceId in due { views.index(deviceId, reading: boxes[deviceId]?.record.profile.hiddenDirs, guards: guards) }
        var effects = refreshViews(fleet, now: now, due: &due)
        effects += retryChannelDeletions(now: now)
        // Thousands of cards started together reach their stale-date refresh together: such a wave is spread
        // over ticks (at most `timedDecisionsPerTick` woken by a timer each), so a change's push never waits
        // behind thousands of routine refreshes; none is held past half the refresh lead (never stale).
        due.formUnion(
            deviceWakes.takeDue(
                at: now, limit: Self.timedDecisionsPerTick, takingAllBefore: now - policy.staleRefreshLead / 2,
                alreadyDue: due))
        guard decidesEveryDevice else {
            for deviceId in due.sorted() where boxes[deviceId] != nil { effects += decide(deviceId, now: now) }
            return effects
        }
        for deviceId in sortedDevices { effects += decide(deviceId, now: now) }
        return effects
    }

    /// The most devices one tick decides for because a timer of theirs is due (devices an event or a view
    /// change touched are decided whatever their number).
    public static let timedDecisionsPerTick = 500

    /// Decides for one device on its view; a device whose box this changed is decided again at the next
    /// tick, and one with a timer running is woken when it is due.
    private mutating func decide(_ deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        let view = views.view(for: boxes[deviceId]!.record.profile.hiddenDirs, guards: guards)
        let before = boxes[deviceId]!
        // Whether this decision held a routine push for its coalescing interval (``PushBudget``).
        var routineWaiting = false
        let effects = decide(deviceId, view: view, now: now, routineWaiting: &routineWaiting)
        let box = boxes[deviceId]!
        if box != before { dirtyDevices.insert(deviceId) }
        deviceWakes.schedule(deviceId, at: Self.wake(at: wakeTimes(box, isRoutineWaiting: routineWaiting), now: now))
        return effects
    }

    /// The section-6 decision table for one device, plus token ageing, channel upkeep and renewal.
    ///
    /// The box is written back only when this tick changed it, so a tick over an unchanged fleet copies nothing.
    private mutating func decide(
        _ deviceId: DeviceID, view: FleetView, now: UnixTime, routineWaiting: inout Bool
    ) -> [WatcherEffect] {
        var box = boxes[deviceId]!
        // A push for this card is in flight; its answer decides what the card holds.
        guard box.pending == nil else { return [] }
        let before = box
        var effects = forgetAgedTokens(&box, deviceId: deviceId, now: now)
        effects += upkeepChannels(&box, deviceId: deviceId, now: now)
        if box.record.retiringCard != nil {
            effects += endRetiringCard(&box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting)
        } else {
            effects += repeatEnd(&box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting)
            if box.pending == nil {
                effects += decideCard(&box, deviceId: deviceId, view: view, now: now, routineWaiting: &routineWaiting)
            }
        }
        if box != before {
            boxes[deviceId] = box
            if box.record != before.record { effects.append(.saveDevice(deviceId, box.record)) }
        }
        return effects
    }

    private mutating func decideCard(
        _ box: inout FleetBox, deviceId: DeviceID, view: FleetView, now: UnixTime, routineWaiting: inout Bool
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
            if guards.isOn(.startVeto), let veto = box.record.veto, views.activeSids(for: box.record.profile.hiddenDirs, areAllIn: veto) {
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
            return effects + send(
                .start, content: content, box: &box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting,
                startChannel: channel)
        }
        box.startHeldSince = nil

        // Zero versus unknown: a count with a known-down host in it is unknown, and must never end
        // or zero the card (the server's half of guard `end-gate-trust`).
        let verdict = EndGate(hold: 0).step(
            &box.endGate, activeTotal: view.activeTotal, isTrustworthy: view.isTrustworthy, now: now,
            guards: guards)
        if view.activeTotal == 0 {
            guard verdict == .end else { return effects }
            return effects + send(
                .end, content: .zeroed(at: now), box: &box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting)
        }
        if guards.isOn(.renewal), now - card.startedAt >= policy.renewAfter {
            return effects
                + renew(&box, card: card, content: content, deviceId: deviceId, now: now, routineWaiting: &routineWaiting)
        }
        // A worded local update the app made over our wordless push is no change (ContentState+Words).
        let isRefresh = card.contentState.isSame(as: content, words: words, guards: guards)
        if isRefresh {
            // A steady card is re-pushed before its stale date, so only a card nobody can reach reads stale.
            guard guards.isOn(.staleDate), let staleAt = card.staleAt, now >= staleAt - policy.staleRefreshLead else {
                box.noTokensLogged = nil
                return effects
            }
            // A refresh nothing can carry is logged `no-tokens` once, not at every tick until the card changes.
        }
        return effects + send(
            .update, content: content, box: &box, deviceId: deviceId, now: now, routineWaiting: &routineWaiting,
            isStaleDateRefresh: isRefresh)
    }
}
