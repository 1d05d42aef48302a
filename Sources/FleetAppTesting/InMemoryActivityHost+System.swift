import FleetApp
import FleetCore

/// A Live Activity push as the phone receives it (what APNs delivers to one token).
public enum LiveActivityPush: Hashable, Sendable {
    /// `event: update` with its `content-state`, `timestamp` and `stale-date` (nil: none).
    case update(ContentState, timestamp: UnixTime, staleDate: UnixTime? = nil)
    /// `event: end` with an optional final `content-state`, the `dismissal-date` as a policy, and `timestamp`.
    case end(ContentState?, dismissal: DismissalPolicy, timestamp: UnixTime)
}

/// What became of a push on the phone. APNs answers 200 in every case: only the phone knows.
public enum PushArrival: Hashable, Sendable {
    /// A live card took the push.
    case applied(ActivityID)
    /// No live card holds that token (a corpse): the payload is silently dropped.
    case droppedNoLiveCard
    /// The push is older than what the card already shows (`timestamp` ordering): ignored.
    case ignoredAsOlder(ActivityID)
    /// A push-to-start for a token this install no longer answers to, or past the activity limit.
    case startRefused
    /// A push-to-start naming a broadcast channel that does not exist (deleted), or on an iOS before 18:
    /// nothing starts, and APNs still answered 200.
    case startedNothing
}

/// The system's side of the simulated phone: what iOS, APNs and the person do to it.
extension InMemoryActivityHost {
    /// The app's process starts (a tap, or a background launch after a push-to-start). Mints a new
    /// push-to-start token, as iOS does on essentially every launch.
    public func appLaunched(inForeground: Bool) {
        settle()
        isAppRunning = true
        isAppInForeground = inForeground
        pushToStartToken = mintToken(kind: 0xa1)
    }

    /// The app comes to the foreground.
    public func appForegrounded() { isAppInForeground = isAppRunning }

    /// The app leaves the foreground (it may keep running in the background for a while).
    public func appBackgrounded() { isAppInForeground = false }

    /// The app's process dies (suspended and evicted, or force-quit): every observation ends and
    /// everything queued for it is lost. Cards and their tokens live on.
    public func appTerminated() {
        settle()
        isAppRunning = false
        isAppInForeground = false
        observingActivityUpdates = false
        observingPushToStart = false
        observedActivities = []
        queue.removeAll { $0.pending.isYield }
    }

    /// A push-to-start arrives for `token`. Starts a card (it arrives through `activityUpdates` if the
    /// app is running) unless the token is not this install's current one or the limit is reached.
    ///
    /// `inputPushChannel` (iOS 18): the card follows that channel and gets no update token;
    /// `channelExists` says whether APNs still knows it (a start naming a deleted channel starts nothing).
    @discardableResult
    public func pushToStart(
        token: PushToken, content: ContentState, staleDate: UnixTime? = nil, inputPushChannel: String? = nil,
        channelExists: Bool = true
    ) -> PushArrival {
        settle()
        guard token == pushToStartToken, liveCount < behaviour.maxActivities else { return .startRefused }
        if inputPushChannel != nil, !channelExists || !behaviour.supportsChannels { return .startedNothing }
        let getsToken = inputPushChannel == nil && behaviour.pushStartedCardsGetTokens
        return .applied(
            startCard(content: content, getsUpdateToken: getsToken, staleDate: staleDate, channel: inputPushChannel))
    }

    /// A broadcast on `channel` arrives: every live card following it applies it (timestamp ordering as
    /// for a token push). Returns the cards that took it.
    @discardableResult
    public func deliverBroadcast(_ push: LiveActivityPush, onChannel channel: String) -> [ActivityID] {
        settle()
        let indices = cards.indices.filter { cards[$0].state.isLive && cards[$0].channel == channel }
        return indices.compactMap { index in
            if case .applied(let id) = apply(push, at: index) { return id }
            return nil
        }
    }

    /// A Live Activity push arrives for an update token.
    @discardableResult
    public func deliver(_ push: LiveActivityPush, toUpdateToken token: PushToken) -> PushArrival {
        settle()
        guard let index = cards.firstIndex(where: { $0.state.isLive && $0.updateToken == token }) else {
            return .droppedNoLiveCard
        }
        return apply(push, at: index)
    }

    func apply(_ push: LiveActivityPush, at index: Int) -> PushArrival {
        let id = cards[index].id
        switch push {
        case .update(let content, let timestamp, let staleDate):
            guard timestamp >= cards[index].lastTimestamp else { return .ignoredAsOlder(id) }
            cards[index].content = content
            cards[index].lastTimestamp = timestamp
            setStaleDate(staleDate, of: index)
            // `contentUpdates` yields the pushed content to an app that observes the card.
            schedule(.yield(.contentChanged(id, content: content)), after: 0)
        case .end(let content, let dismissal, let timestamp):
            guard timestamp >= cards[index].lastTimestamp else { return .ignoredAsOlder(id) }
            cards[index].lastTimestamp = timestamp
            endCard(id, finalContent: content, dismissal: dismissal)
        }
        return .applied(id)
    }

    /// The person swipes a card away: it ends and leaves the screen; the app is not asked.
    public func personDismissed(_ id: ActivityID) {
        settle()
        endCard(id, finalContent: nil, dismissal: .immediate)
    }

    /// The channel a card follows, or nil (a token card, or gone).
    public func channel(of id: ActivityID) -> String? {
        settle()
        return liveIndex(of: id).flatMap { cards[$0].channel }
    }

    /// Adds a card of the retired per-session type, as an older build left it (for the tombstone sweep).
    @discardableResult
    public func addRetiredActivity() -> ActivityID {
        startCard(content: ContentState(), getsUpdateToken: false, kind: .retired)
    }

    /// The fleet cards on the lock screen now: live ones and ended ones not yet dismissed.
    public var visibleFleetCards: [FleetActivity] {
        fleetActivities.filter { $0.state != .pending }
    }

    /// A card's current update token, or nil when it has none (not minted yet, no push type, or ended).
    public func updateToken(of id: ActivityID) -> PushToken? {
        settle()
        return liveIndex(of: id).flatMap { cards[$0].updateToken }
    }

    /// Whether the app observes a card's token and state sequences now.
    public func isObserving(_ id: ActivityID) -> Bool { observedActivities.contains(id) }
}
