import FleetApp
import FleetCore

/// ActivityKit in memory, behaving as the reference and the seed document iOS, driven in virtual time.
///
/// Single-threaded and deterministic: nothing happens until the driver asks. Commands (`request`,
/// `update`, `end`) change the cards at once, as ActivityKit does; everything a sequence yields is
/// queued with a due time read from the injected clock and handed out, one at a time, by
/// ``takeNextDueEvent()``, so a discrete-event simulator decides when the app sees it. Ordering is by
/// (due time, sequence number), so the same calls give the same events.
///
/// What it models: tokens arrive ``Behaviour/tokenLatency`` after a card (or a launch); the push-to-start
/// token is re-minted on every launch and may be yielded twice; an update token exists only while its
/// card lives; push-started cards arrive through `activityUpdates` like the app's own; an ended card
/// yields nothing more; a card requested with no push type never gets a token; a request from the
/// background fails with ``ActivityRequestError/visibility``; a terminated app loses every observation
/// and everything queued for it. The system-side calls (launch, push-to-start, pushes, the person
/// dismissing a card) are in `InMemoryActivityHost+System.swift`.
public final class InMemoryActivityHost: ActivityHost {
    /// How this simulated iOS behaves; the defaults follow the reference.
    public struct Behaviour: Hashable, Sendable {
        /// Seconds from a card's birth (or the app's launch) until its token is minted and yielded.
        public var tokenLatency: Double
        /// Seconds from something happening until the matching sequence yields it.
        public var deliveryLatency: Double
        /// Whether `pushToStartTokenUpdates` yields each token twice (it does, on real devices).
        public var pushToStartFiresTwice: Bool
        /// Live activities iOS allows the app at once (third parties report 5).
        public var maxActivities: Int
        /// Whether a push-started card gets an update token (`input-push-token: 1`, or any iOS 17 start).
        public var pushStartedCardsGetTokens: Bool
        /// Seconds a card may stay active before the system ends it (8 hours).
        public var maxActiveDuration: Double
        /// Seconds an ended card with the default dismissal policy stays on the lock screen (4 hours).
        public var endedCardLingers: Double
        /// iOS 18 or later: cards can follow broadcast channels (`.channel(id)`, `input-push-channel`).
        public var supportsChannels: Bool

        public init(
            tokenLatency: Double = 0.5, deliveryLatency: Double = 0.05, pushToStartFiresTwice: Bool = true,
            maxActivities: Int = 5, pushStartedCardsGetTokens: Bool = true, maxActiveDuration: Double = 8 * 3600,
            endedCardLingers: Double = 4 * 3600, supportsChannels: Bool = true
        ) {
            self.supportsChannels = supportsChannels
            self.tokenLatency = tokenLatency
            self.deliveryLatency = deliveryLatency
            self.pushToStartFiresTwice = pushToStartFiresTwice
            self.maxActivities = maxActivities
            self.pushStartedCardsGetTokens = pushStartedCardsGetTokens
            self.maxActiveDuration = maxActiveDuration
            self.endedCardLingers = endedCardLingers
        }
    }

    /// A call the app made, recorded in order for tests and traces.
    public enum Command: Hashable, Sendable {
        case request(ActivityID, ContentState, ActivityPushType)
        case update(ActivityID, ContentState)
        case end(ActivityID, ContentState?, DismissalPolicy)
        case endRetired(ActivityID)
    }

    enum Kind: Hashable { case fleet, retired }

    struct Card: Hashable {
        var id: ActivityID
        var kind: Kind
        var content: ContentState
        var state: ActivityLifecycleState
        var getsUpdateToken: Bool
        var updateToken: PushToken?
        var lastTimestamp: UnixTime
        var dismissAt: UnixTime?
        var staleDate: UnixTime?
        /// The broadcast channel the card follows (`.channel(id)` or `input-push-channel`), if any.
        var channel: String?
    }

    enum Pending: Hashable {
        case yield(ActivityHostEvent)
        case mintUpdateToken(ActivityID)
        case dismiss(ActivityID)
        case expire(ActivityID)
        case markStale(ActivityID, at: UnixTime)

        var isYield: Bool {
            if case .yield = self { return true }
            return false
        }
    }

    struct Scheduled: Hashable {
        var due: UnixTime
        var sequence: Int
        var pending: Pending
    }

    public let behaviour: Behaviour
    let clock: WallClock
    let installTag: String
    var cards: [Card] = []
    var queue: [Scheduled] = []
    var sequence = 0
    var activityCounter = 0
    var tokenCounter = 0
    var observingActivityUpdates = false
    var observingPushToStart = false
    var observedActivities: Set<ActivityID> = []

    /// The install's current push-to-start token (minted on every launch); nil before the first launch.
    public internal(set) var pushToStartToken: PushToken?
    /// Whether the app's process runs (foreground or background).
    public internal(set) var isAppRunning = false
    /// Whether the app is in the foreground (only then may it start a card).
    public internal(set) var isAppInForeground = false
    /// Every command the app gave, oldest first.
    public internal(set) var commands: [Command] = []

    /// A simulated iOS for one install; `installID` keeps ids and tokens of different phones apart.
    public init(clock: WallClock, behaviour: Behaviour = Behaviour(), installID: UInt32 = 1) {
        self.clock = clock
        self.behaviour = behaviour
        installTag = Self.hex(UInt64(installID), width: 8)
    }

    // MARK: ActivityHost

    public var fleetActivities: [FleetActivity] {
        settle()
        return cards.filter { $0.kind == .fleet && $0.state != .dismissed }
            .map { FleetActivity(id: $0.id, content: $0.content, state: $0.state, staleDate: $0.staleDate) }
    }

    public var retiredActivityIDs: [ActivityID] {
        settle()
        return cards.filter { $0.kind == .retired && $0.state.isLive }.map(\.id)
    }

    public func request(
        _ content: ContentState, pushType: ActivityPushType, staleDate: UnixTime?
    ) throws(ActivityRequestError) -> ActivityID {
        settle()
        guard isAppInForeground else { throw .visibility }
        guard liveCount < behaviour.maxActivities else { throw .targetMaximumExceeded }
        var channel: String?
        if case .channel(let id) = pushType {
            guard behaviour.supportsChannels else { throw .other("a channel card needs iOS 18") }
            channel = id
        }
        let id = startCard(content: content, getsUpdateToken: pushType == .token, staleDate: staleDate, channel: channel)
        commands.append(.request(id, content, pushType))
        return id
    }

    public func update(_ id: ActivityID, to content: ContentState, staleDate: UnixTime?) {
        settle()
        commands.append(.update(id, content))
        guard let index = liveIndex(of: id) else { return }
        cards[index].content = content
        cards[index].lastTimestamp = max(cards[index].lastTimestamp, content.updatedAt)
        // `ActivityContent(state:staleDate:)`: the app's own update replaces the stale date (nil clears it).
        setStaleDate(staleDate, of: index)
    }

    public func end(_ id: ActivityID, finalContent: ContentState?, dismissal: DismissalPolicy) {
        settle()
        commands.append(.end(id, finalContent, dismissal))
        endCard(id, finalContent: finalContent, dismissal: dismissal)
    }

    public func endRetired(_ id: ActivityID) {
        settle()
        commands.append(.endRetired(id))
        endCard(id, finalContent: nil, dismissal: .immediate)
    }

    public func observeActivityUpdates() { observingActivityUpdates = true }

    public func observePushToStartTokens() {
        observingPushToStart = true
        guard let token = pushToStartToken else { return }
        schedule(.yield(.pushToStartTokenIssued(token)), after: behaviour.tokenLatency)
        if behaviour.pushToStartFiresTwice {
            schedule(.yield(.pushToStartTokenIssued(token)), after: behaviour.tokenLatency + behaviour.deliveryLatency)
        }
    }

    public func observeActivity(_ id: ActivityID) {
        settle()
        observedActivities.insert(id)
        if let index = liveIndex(of: id), let token = cards[index].updateToken {
            schedule(.yield(.pushTokenIssued(id, token)), after: behaviour.deliveryLatency)
        }
    }

    public func stopObservingActivity(_ id: ActivityID) { observedActivities.remove(id) }

    // MARK: Cards

    var liveCount: Int { cards.filter { $0.state.isLive }.count }

    func liveIndex(of id: ActivityID) -> Int? {
        cards.firstIndex { $0.id == id && $0.state.isLive }
    }

    @discardableResult
    func startCard(
        content: ContentState, getsUpdateToken: Bool, kind: Kind = .fleet, staleDate: UnixTime? = nil,
        channel: String? = nil
    ) -> ActivityID {
        activityCounter += 1
        let id = ActivityID("\(installTag)-\(Self.hex(UInt64(activityCounter), width: 6))")
        cards.append(
            Card(id: id, kind: kind, content: content, state: .active, getsUpdateToken: getsUpdateToken,
                 updateToken: nil, lastTimestamp: content.updatedAt, dismissAt: nil, staleDate: nil, channel: channel))
        guard kind == .fleet else { return id }
        setStaleDate(staleDate, of: cards.count - 1)
        schedule(.yield(.activityArrived(id)), after: behaviour.deliveryLatency)
        if getsUpdateToken { schedule(.mintUpdateToken(id), after: behaviour.tokenLatency) }
        schedule(.expire(id), after: behaviour.maxActiveDuration)
        return id
    }

    func endCard(_ id: ActivityID, finalContent: ContentState?, dismissal: DismissalPolicy, at instant: UnixTime? = nil) {
        guard let index = liveIndex(of: id) else { return }
        let now = instant ?? clock.now
        if let finalContent { cards[index].content = finalContent }
        cards[index].updateToken = nil
        let lingerLimit = now + behaviour.endedCardLingers
        switch dismissal {
        case .immediate:
            cards[index].state = .dismissed
        case .default:
            cards[index].state = .ended
            cards[index].dismissAt = lingerLimit
        case .after(let instant):
            cards[index].state = .ended
            cards[index].dismissAt = min(max(instant, now), lingerLimit)
        }
        if let dismissAt = cards[index].dismissAt { schedule(.dismiss(id), at: dismissAt) }
        schedule(
            .yield(.activityStateChanged(id, cards[index].state, content: cards[index].content)),
            at: now + behaviour.deliveryLatency)
    }

    /// Sets a card's stale date (nil: never stale) and has iOS mark it stale then, unless newer content
    /// moves the date first. New content makes a stale card active again.
    func setStaleDate(_ staleDate: UnixTime?, of index: Int) {
        cards[index].staleDate = staleDate
        if cards[index].state == .stale { cards[index].state = .active }
        if let staleDate { schedule(.markStale(cards[index].id, at: staleDate), at: staleDate) }
    }

    func schedule(_ pending: Pending, after seconds: Double) {
        schedule(pending, at: clock.now + max(0, seconds))
    }

    func schedule(_ pending: Pending, at due: UnixTime) {
        sequence += 1
        queue.append(Scheduled(due: due, sequence: sequence, pending: pending))
    }

    func mintToken(kind: UInt8) -> PushToken {
        tokenCounter += 1
        let text = Self.hex(UInt64(tokenCounter), width: 8) + Self.hex(UInt64(kind), width: 2) + installTag
        return PushToken(hex: text + String(repeating: "0", count: 64 - text.count))!  // 64 hex digits by construction
    }

    static func isEarlier(_ lhs: Scheduled, _ rhs: Scheduled) -> Bool {
        lhs.due != rhs.due ? lhs.due < rhs.due : lhs.sequence < rhs.sequence
    }

    static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
