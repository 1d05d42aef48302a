import APNs
import FleetCore

/// Turning a decided action into a batch: where it goes (tokens or a channel), at which priority, with
/// which stale date.
extension Watcher {
    /// Addresses `action` and sends it, logs `decide` (tokens 0) and `no-tokens` (once per action) when
    /// nothing can carry it, or
    /// does nothing while a routine change waits for its coalescing interval (guard `priority-budget`).
    ///
    /// - Parameters:
    ///   - routineWaiting: set when a routine push waits for its coalescing interval (the device is woken then).
    ///   - startChannel: for a `start`, the channel the new card subscribes to (channel mode).
    ///   - isStaleDateRefresh: the update only moves the card's stale date (``PushBatch/isStaleDateRefresh``).
    mutating func send(
        _ action: PushAction, content: ContentState, box: inout FleetBox, deviceId: DeviceID, now: UnixTime,
        routineWaiting: inout Bool, purpose: PushPurpose = .card, startChannel: DeviceChannel? = nil,
        isStaleDateRefresh: Bool = false
    ) -> [WatcherEffect] {
        var route = self.route(action, box: box, purpose: purpose, startChannel: startChannel)
        // Tokens APNs refused for a passing reason wait out their back-off: never a re-send every tick.
        // A start goes to the tokens that are ready (one acceptance is enough); an update or end waits
        // for all of them, or the waiting token's card would miss content nobody re-sends.
        let ready = route.targets.filter { !box.isBackingOff($0, now: now) }
        if ready.count < route.targets.count, action != .start || ready.isEmpty { return [] }
        route.targets = ready
        guard route.channel != nil || !route.targets.isEmpty else {
            guard box.noTokensLogged != action else { return [] }
            box.noTokensLogged = action
            // The decision is logged even so (contract 7: `decide` with `tokens: 0`, then its outcome).
            return [
                .log(.decide(at: now, deviceId: deviceId, action: action, tokens: 0, content: content)),
                .log(.noTokens(at: now, deviceId: deviceId, action: action)),
            ]
        }
        let shown = purpose == .card ? box.record.card?.contentState : nil
        let priority: PushPriority
        switch priorityVerdict(action, shown: shown, next: content, box: box, now: now) {
        case .wait:
            routineWaiting = true
            return []
        case .send(let chosen): priority = chosen
        }
        box.noTokensLogged = nil
        box.lastPushAt = now
        if priority == .immediate {
            box.immediateSent.removeAll { $0 <= now - 3600 }
            box.immediateSent.append(now)
        }
        let batch = PushBatch(
            id: makeBatchId(), deviceId: deviceId, action: action, contentState: content,
            dismissalDate: action == .end ? now : nil, targets: route.targets, decidedAt: now, priority: priority,
            staleDate: action != .end && guards.isOn(.staleDate) ? policy.staleDate(pushedAt: now) : nil,
            inputPushChannel: action == .start ? startChannel?.id : nil, channel: route.channel,
            isStaleDateRefresh: isStaleDateRefresh)
        box.pending = PendingPush(batch: batch, generation: box.generation, purpose: purpose)
        let decide = DecisionLogLine.decide(
            at: now, deviceId: deviceId, action: action, tokens: route.targets.count, content: content,
            priority: priority.rawValue, channel: (route.channel ?? startChannel)?.shortId,
            purpose: Self.loggedPurpose(purpose))
        return [.log(decide), .send(batch)]
    }

    /// A push's purpose as `decide` logs it (nil for the decision table's own).
    static func loggedPurpose(_ purpose: PushPurpose) -> String? {
        switch purpose {
        case .card: nil
        case .renewal: "renewal"
        case .retiringEnd: "retiring-end"
        case .repeatedEnd: "repeated-end"
        }
    }

    /// Where a start goes among `tokens` (newest first): the newest of each env, only the device's own env
    /// when it has a token there (guard `newest-start-token`); without the guard, every one.
    private func startTargets(_ tokens: [LiveActivityToken], deviceEnv: PushEnvironment?) -> [LiveActivityToken] {
        guard guards.isOn(.newestStartToken) else { return tokens }
        let own = tokens.filter { $0.env == deviceEnv }
        var seenEnvs = Set<PushEnvironment>()
        return (own.isEmpty ? tokens : own).filter { seenEnvs.insert($0.env).inserted }
    }

    /// Priority 10 and never delayed for what needs the person; routine changes priority 5, coalesced.
    /// With guard `priority-budget` off, everything goes at once at priority 10 (the old behaviour).
    private func priorityVerdict(
        _ action: PushAction, shown: ContentState?, next: ContentState, box: FleetBox, now: UnixTime
    ) -> PushBudget.Verdict {
        guard guards.isOn(.priorityBudget) else {
            // A stale-date refresh brings nothing new: it is guard `stale-date`'s own push and never spends
            // iOS's priority-10 budget, even in the old behaviour (else the refreshes eat the budget and
            // iOS holds the next real change).
            let isRefresh = action == .update && shown.map { $0.isSame(as: next, guards: guards) } == true
            return .send(isRefresh ? .powerConsidered : .immediate)
        }
        return policy.budget.verdict(
            action, shown: shown, next: next, lastPushAt: box.lastPushAt, immediateSent: box.immediateSent, now: now,
            spendsSpare: guards.isOn(.spareBudget))
    }

    /// Where a push goes: a start to the push-to-start tokens (only those of the channel's env when it
    /// starts a channel card); a channel card's update and end to its channel; a token card's to its
    /// update tokens; the end of a renewed card to what it listened on.
    private func route(
        _ action: PushAction, box: FleetBox, purpose: PushPurpose, startChannel: DeviceChannel?
    ) -> (targets: [PushTarget], channel: DeviceChannel?) {
        let record = box.record
        if action == .start {
            let tokens = record.tokens.of(.pushToStart).filter { startChannel == nil || $0.env == startChannel?.env }
            return (startTargets(tokens, deviceEnv: record.profile.env).map(\.target), nil)
        }
        if purpose == .repeatedEnd, let channel = box.endsToRepeat.first { return ([], channel) }
        if purpose == .retiringEnd, let retiring = record.retiringCard {
            return retiring.channel.map { ([], $0) } ?? (retiring.updateTargets, nil)
        }
        if let id = record.card?.channel {
            return ([], record.channel.channels.first { $0.id == id })
        }
        return (record.tokens.of(.update).map(\.target), nil)
    }
}
