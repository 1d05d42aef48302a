import FleetApp
import FleetCore

/// How the simulated iOS hands out what its sequences yield: one due event at a time, in (due time,
/// sequence) order, with token mints, dismissals and expiry carried out on the way.
extension InMemoryActivityHost {
    /// When the next queued thing falls due (a yield, a token mint, a dismissal), or nil when none is queued.
    public var nextDueTime: UnixTime? { queue.min(by: Self.isEarlier)?.due }

    /// The next event a sequence yields that is due by now, or nil. Events a cancelled observation or an
    /// ended card would have yielded are dropped on the way, as iOS drops them.
    public func takeNextDueEvent() -> ActivityHostEvent? {
        let now = clock.now
        while let next = queue.min(by: Self.isEarlier), next.due <= now {
            queue.removeAll { $0.sequence == next.sequence }
            if let event = process(next.pending, at: next.due) { return event }
        }
        return nil
    }

    /// Runs the internal changes (token mints, dismissals, expiry) due by now without handing out events.
    func settle() {
        let now = clock.now
        while let next = queue.filter({ $0.due <= now && !$0.pending.isYield }).min(by: Self.isEarlier) {
            queue.removeAll { $0.sequence == next.sequence }
            _ = process(next.pending, at: next.due)
        }
    }

    /// Carries out one queued item that fell due at `due` (anything it schedules counts from `due`, not
    /// from whenever the driver got round to it).
    func process(_ pending: Pending, at due: UnixTime) -> ActivityHostEvent? {
        switch pending {
        case .yield(let event):
            return isDeliverable(event) ? event : nil
        case .mintUpdateToken(let id):
            guard let index = liveIndex(of: id), cards[index].getsUpdateToken else { return nil }
            let token = mintToken(kind: 0xb2)
            cards[index].updateToken = token
            if observedActivities.contains(id) {
                schedule(.yield(.pushTokenIssued(id, token)), at: due + behaviour.deliveryLatency)
            }
            return nil
        case .dismiss(let id):
            guard let index = cards.firstIndex(where: { $0.id == id }), cards[index].state == .ended else { return nil }
            cards[index].state = .dismissed
            schedule(.yield(.activityStateChanged(id, .dismissed, content: cards[index].content)), at: due)
            return nil
        case .expire(let id):
            endCard(id, finalContent: nil, dismissal: .default, at: due)
            return nil
        case .markStale(let id, let staleDate):
            guard let index = liveIndex(of: id), cards[index].staleDate == staleDate, cards[index].state == .active
            else { return nil }
            cards[index].state = .stale
            schedule(.yield(.activityStateChanged(id, .stale, content: cards[index].content)), at: due)
            return nil
        }
    }

    func isDeliverable(_ event: ActivityHostEvent) -> Bool {
        guard isAppRunning else { return false }
        switch event {
        case .activityArrived:
            return observingActivityUpdates
        case .pushToStartTokenIssued(let token):
            return observingPushToStart && token == pushToStartToken
        case .pushTokenIssued(let id, let token):
            guard observedActivities.contains(id), let index = liveIndex(of: id) else { return false }
            return cards[index].updateToken == token
        case .activityStateChanged(let id, _, _):
            return observedActivities.contains(id)
        case .contentChanged(let id, _):
            return observedActivities.contains(id) && liveIndex(of: id) != nil
        }
    }
}
