import FleetCore

/// Keeping the views (``FleetViews``) in step with the fleet: per tick, only the sessions the snapshot logged
/// as changed, the sessions of hosts that went down or came back, and those whose silence or question timer
/// is due get their part recomputed; the first tick (or one after the log ran out) looks at every session.
extension Watcher {
    /// Moves the changed sessions' parts, keeps the sticky baselines, and adds to `due` the devices whose
    /// view changed. Returns the baselines to persist.
    mutating func refreshViews(_ fleet: FleetSnapshot, now: UnixTime, due: inout Set<DeviceID>) -> [WatcherEffect] {
        let downHosts = fleet.downHosts(at: now)
        var changed: Set<SessionID>
        let isEverySession: Bool
        if let reduced = views.reducedSequence, let logged = fleet.sessionsChanged(after: reduced) {
            changed = logged.union(views.revisit)
            changed.formUnion(views.sessionWakes.takeDue(at: now))
            for host in downHosts.symmetricDifference(views.downHosts) {
                changed.formUnion(fleet.sessionsByHost[host] ?? [])
            }
            isEverySession = false
        } else {
            // Every session, and every baseline (one a load brought may belong to no session any more).
            changed = Set(fleet.sessions.keys).union(since.keys).union(views.parts.keys)
            views.sessionWakes = WakeSchedule()
            isEverySession = true
        }
        views.reducedSequence = fleet.sequence
        views.downHosts = downHosts
        views.revisit = []
        guard !changed.isEmpty else { return [] }

        var changedSince: SinceMap = [:]
        var removed: [SessionID] = []
        var touched = Set<HiddenDirs>()
        let viewKeys = Array(views.tallies.keys)
        for sid in changed {
            let session = fleet.fleetSession(sid, downHosts: downHosts)
            let part = session.map {
                FleetReducer.part(of: $0, previousSince: since, now: now, guards: guards, silence: policy.silence)
            }
            views.sessionWakes.schedule(sid, at: session.flatMap { sessionWake($0, part: part!, now: now) })
            if since[sid] != part?.since {
                since[sid] = part?.since
                if let entry = part?.since { changedSince[sid] = entry } else { removed.append(sid) }
            }
            let old = views.parts[sid]
            guard old != part else { continue }
            views.parts[sid] = part
            guard !isEverySession else { continue }
            for key in viewKeys where views.tallies[key]!.replace(old, with: part) { touched.insert(key) }
        }
        if isEverySession {
            // One sort per view beats 50,000 insertions.
            for key in viewKeys { views.tallies[key] = FleetTally(hiddenDirs: key, guards: guards, parts: views.parts.values) }
            touched = Set(viewKeys)
        }
        views.reducedAt = now
        for key in touched {
            let view = FleetView(views.tallies[key]!, now: now)
            if views.views[key].map({ !view.isSame(as: $0) }) ?? true { due.formUnion(views.devicesOfView[key] ?? []) }
            views.views[key] = view
        }
        guard !changedSince.isEmpty || !removed.isEmpty else { return [] }
        return [.saveSince(changed: changedSince, removed: removed.sorted())]
    }

    /// When `session`'s part may change with no report: it turns quiet (guard `no-news`), or its question
    /// expires.
    private func sessionWake(_ session: FleetSession, part: SessionPart, now: UnixTime) -> UnixTime? {
        var times = [part.changesAt].compactMap { $0 }
        if guards.isOn(.noNews), session.report.busy, !session.isHostDown, let heardAt = session.heardAt {
            times.append(policy.silence.quietAt(heardAt: heardAt))
        }
        return Self.wake(at: times, now: now)
    }

    /// The earliest of `times` still ahead of `now`. A time just reached (within a millisecond: `now - a >= b`
    /// and `now >= a + b` can round apart) wakes at the next tick, so a condition rounding kept false one
    /// tick is looked at again.
    static func wake(at times: [UnixTime], now: UnixTime) -> UnixTime? {
        times.lazy.filter { $0 > now - 0.001 }.map { max($0, now) }.min()
    }

    /// The times at which a device's decision may change with nothing else changing: token ageing, a channel
    /// retry, the 8-hour limit and renewal, the stale-date refresh, the start hold, token back-offs and, when
    /// a routine push is waiting (`isRoutineWaiting`), the end of the coalescing interval. Early or extra
    /// times only cost a decision that finds nothing to do.
    func wakeTimes(_ box: FleetBox, isRoutineWaiting: Bool) -> [UnixTime] {
        let record = box.record
        var times = record.tokens.filter { $0.kind == .update }.map { $0.registeredAt + policy.updateTokenMaxAge }
        times += [record.channel.retryAt, box.startHeldSince.map { $0 + startHold.grace }].compactMap { $0 }
        times += [box.foregroundReportedAt.map { $0 + startHold.foregroundFreshness }].compactMap { $0 }
        if isRoutineWaiting, let lastPushAt = box.lastPushAt { times.append(lastPushAt + policy.budget.routineInterval) }
        if let retiring = record.retiringCard { times.append(retiring.startedAt + CardPolicy.cardLifetimeSeconds) }
        if let card = record.card {
            times += [card.startedAt + CardPolicy.cardLifetimeSeconds, card.startedAt + policy.renewAfter]
            if let staleAt = card.staleAt { times.append(staleAt - policy.staleRefreshLead) }
        }
        return times + box.backoff.values.map(\.until)
    }
}
