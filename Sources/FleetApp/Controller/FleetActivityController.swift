import FleetCore

/// The app-side writer of the fleet card: instant while the app is alive.
///
/// A value with a pure `sync`: the session model and the cards iOS reports go in, the ActivityKit calls
/// to make come out. The driver runs `sync` on four triggers (``Trigger``) and carries the effects out.
public struct FleetActivityController: Hashable, Sendable {
    /// Why `sync` runs. All four are needed: the app has no other way to notice it is behind.
    public enum Trigger: String, Hashable, Sendable, Codable, CaseIterable {
        /// The app launched (`configure`): sync at once, before the first refresh answers.
        case launch
        /// Any observed change of sessions, busy, prompts or `hiddenDirs`.
        case modelChanged
        /// A refresh of the sessions completed.
        case refreshCompleted
        /// The app came to the foreground.
        case foregrounded
    }

    /// An ActivityKit call (or report) the controller wants made.
    public enum Effect: Hashable, Sendable {
        /// Start the card: with push type token, or the device's channel; never none (a card started with
        /// none freezes when the app suspends).
        case request(ContentState, pushType: ActivityPushType)
        /// Replace the card's content (only when its renderable content differs).
        case update(ActivityID, ContentState)
        /// End the card now, showing the zeroed state.
        case end(ActivityID, finalContent: ContentState, dismissal: DismissalPolicy)
        /// Tell the server (`POST /api/push/live-activity/ended`) that the app ended its card.
        case reportEnded
    }

    /// What one `sync` saw and decided, for traces and the simulator's report.
    public struct Decision: Hashable, Sendable {
        public var trigger: Trigger
        public var reduction: FleetReduction
        public var isTrustworthy: Bool
        public var verdict: EndVerdict
        public var effects: [Effect]
    }

    /// A card this old is renewed while the app is in the foreground: 30 minutes before iOS's 8-hour end
    /// (reference 4.7), the same margin the server's renewal keeps.
    public static let renewAfter: Double = 8 * 3600 - 30 * 60

    /// The end gate (hold 0: the card goes the moment nothing runs, as the server's debounce).
    public var endGate: EndGate
    /// What the gate remembers between syncs.
    public private(set) var gateState = EndGateState()
    /// The sticky `since` baselines, carried across syncs so elapsed labels survive.
    public private(set) var since: SinceMap = [:]
    /// The sessions that were active when a card was taken away from elsewhere (the person swiped it
    /// away). No new card is requested while every active session is among them, the app-side mirror of
    /// the server's start veto; a card appearing again or a new active session clears it.
    public private(set) var dismissedPopulation: Set<SessionID>?
    /// Whether ``since`` dates from before a suspension: while the app slept the server may have
    /// rewritten the card, so for the sessions the card shows, its rows are the better baselines.
    public private(set) var baselinesPredateSuspension = false

    public init(endGate: EndGate = EndGate()) { self.endGate = endGate }

    /// One sync: reduce the filtered sessions, ask the end gate, and say what to do with the card.
    ///
    /// - Parameters:
    ///   - cards: `Activity<LFGFleetAttributes>.activities` now (ended ones are ignored).
    ///   - now: Unix seconds; the card's `updatedAt` and any new `since`.
    ///   - newCardPushType: `.token`, or in channel mode `.channel(id)` (the device's channel).
    ///   - survivorAge: seconds since the kept card appeared, when known and the app is in the foreground
    ///     (only then may it start a card): past ``renewAfter`` the card is replaced before iOS ends it.
    ///   - staleAfter: the stale date the app gives its own requests and updates is this far ahead; a kept
    ///     card whose stale date is near (``CardStaleness/isRefreshDue(staleDate:staleAfter:now:)``) is
    ///     updated with the same content, so a card the app keeps right never reads stale. Nil: no stale dates.
    ///   - survivorIsOnRetiredChannel: the kept card follows a channel the server rotated away from (the app
    ///     is in the foreground): nobody publishes there any more, so a new card is requested on the current
    ///     one and dedupe ends the old (guard `channel-rotation`, the app's half).
    public mutating func sync(
        _ trigger: Trigger, model: SessionModel, cards: [FleetActivity], now: UnixTime, guards: GuardSet = .all,
        newCardPushType: ActivityPushType = .token, survivorAge: Double? = nil, staleAfter: Double? = nil,
        survivorIsOnRetiredChannel: Bool = false
    ) -> Decision {
        let live = cards.liveCards
        let survivor = cards.survivor
        let reduction = FleetReducer.reduce(
            model.filteredSessions,
            previousSince: baselines(
                adopting: survivor, listed: guards.isOn(.serverSince) ? model.listedBaselines : [:]),
            hiddenDirs: model.hiddenDirs,
            now: now, guards: guards)
        let isTrustworthy = model.fleetCountIsTrustworthy && reduction.isTrustworthy
        let verdict = endGate.step(
            &gateState, activeTotal: reduction.activeTotal, isTrustworthy: isTrustworthy, now: now, guards: guards)

        var effects: [Effect] = []
        switch verdict {
        case .untouched:
            // The count is unknown: leave the card exactly as the server left it, and keep the old
            // baselines so a host coming back does not restart its sessions' timers.
            break
        case .keep:
            since = reduction.since
            baselinesPredateSuspension = false
            let isRenewalDue = guards.isOn(.renewal) && (survivorAge.map { $0 >= Self.renewAfter } ?? false)
            let isOnRetiredChannel = guards.isOn(.channelRotation) && survivorIsOnRetiredChannel
            if survivor != nil, reduction.activeTotal > 0, isRenewalDue || isOnRetiredChannel {
                // iOS ends a card 8 hours after it started, and a card on a retired channel hears nothing:
                // start its successor now; dedupe keeps the newest and ends this one as soon as the new
                // card arrives, so there is no gap.
                dismissedPopulation = nil
                effects.append(.request(reduction.contentState, pushType: newCardPushType))
            } else if let survivor {
                dismissedPopulation = nil
                // Same content whose stale date is near: re-dated (guard `stale-date`), so a card the app
                // keeps right never reads stale while the app runs.
                let isRefreshDue = staleAfter.map {
                    CardStaleness.isRefreshDue(staleDate: survivor.staleDate, staleAfter: $0, now: now)
                } ?? false
                if !survivor.content.isSame(as: reduction.contentState, guards: guards) || isRefreshDue {
                    effects.append(.update(survivor.id, reduction.contentState))
                }
            } else if reduction.activeTotal > 0, !isVetoed(Set(reduction.since.keys)) {
                dismissedPopulation = nil
                effects.append(.request(reduction.contentState, pushType: newCardPushType))
            }
        case .end:
            since = reduction.since
            baselinesPredateSuspension = false
            let zeroed = ContentState.zeroed(at: now)
            effects += live.map { .end($0.id, finalContent: zeroed, dismissal: .immediate) }
            if !live.isEmpty { effects.append(.reportEnded) }
        }
        return Decision(trigger: trigger, reduction: reduction, isTrustworthy: isTrustworthy, verdict: verdict,
                        effects: effects)
    }

    /// A card the app was tracking ended without the app ending it, for `cause`, showing `finalContent`.
    /// Returns whether to report `/ended`: only when the person took the app's live card away from a live
    /// fleet, so the server, too, holds off starting a replacement for the same sessions. An end a writer
    /// or the system caused is never reported back (it would make the server forget the card on screen).
    public mutating func noteCardEndedElsewhere(_ cause: CardEndCause, finalContent: ContentState) -> Bool {
        guard cause.isReportedToServer else { return false }
        // The sessions the person saw on the card, and those the app counted (the card shows at most three).
        let population = Set(since.keys).union(finalContent.rows.map(\.sid))
        guard !population.isEmpty else { return false }
        dismissedPopulation = population
        return true
    }

    /// The app is being suspended: what it knows of the sessions becomes a cache (see
    /// ``SessionModel/demoteToCache()``), and so do its baselines.
    public mutating func noteSuspended() { baselinesPredateSuspension = true }

    func isVetoed(_ active: Set<SessionID>) -> Bool {
        guard let dismissedPopulation else { return false }
        return active.isSubset(of: dismissedPopulation)
    }

    /// The baselines to reduce with: ours, plus the rows of a card someone else wrote (a push-started
    /// card after a cold launch) for sessions we have none for, so adopting it keeps its elapsed times.
    /// For a session in the same state on both, the earlier `since` wins: whoever saw the state begin
    /// first saw it closer to when it did (the server watches every host; the app only from when it
    /// learns of it, so its own baseline after a launch or a wake is late). After a suspension the card's
    /// rows win outright: the app may have missed a state change the server saw while it slept.
    /// A server's own baseline from its listing (`listed`) beats both, for every session it covers, on the
    /// card or not: the server saw each change as it happened (guard `server-since`).
    func baselines(adopting card: FleetActivity?, listed: SinceMap = [:]) -> SinceMap {
        var baselines = since
        for row in card?.content.rows ?? [] {
            let own = baselines[row.sid]
            let isEarlierForSameState = own.map { $0.state == row.state && row.since < $0.since } ?? true
            guard isEarlierForSameState || baselinesPredateSuspension else { continue }
            baselines[row.sid] = SinceEntry(state: row.state, since: row.since)
        }
        baselines.merge(listed) { _, server in server }
        return baselines
    }
}
