import FleetCore

/// Something one of ActivityKit's async sequences yielded, as a value the app's reducers take.
public enum ActivityHostEvent: Hashable, Sendable {
    /// `Activity<LFGFleetAttributes>.activityUpdates` yielded a card: started by the app or push-started.
    case activityArrived(ActivityID)
    /// `Activity<LFGFleetAttributes>.pushToStartTokenUpdates` yielded a token (it may yield the same one twice).
    case pushToStartTokenIssued(PushToken)
    /// `activity.pushTokenUpdates` yielded the card's update token (the first one or a replacement).
    case pushTokenIssued(ActivityID, PushToken)
    /// `activity.activityStateUpdates` yielded a new state; `content` is what the card shows then
    /// (`activity.content.state`): the final content of an ended card tells who ended it.
    case activityStateChanged(ActivityID, ActivityLifecycleState, content: ContentState)
    /// `activity.contentUpdates` yielded: a push (or the app) wrote the card's content. The app answers a
    /// wordless one (privacy mode) by putting its words back.
    case contentChanged(ActivityID, content: ContentState)
}

/// What the app uses of ActivityKit, for the fleet card and the retired per-session type.
///
/// The async sequences are modelled as observations with an explicit lifetime: `observe…` starts one
/// (the live adapter starts a task that iterates the sequence), `stopObservingActivity` cancels one,
/// and whatever they yield reaches the app as an ``ActivityHostEvent`` through the host's own delivery
/// (the ActivityKit adapter's event stream, or ``InMemoryActivityHost/takeDueEvents()`` in a
/// simulation). Commands never deliver an event synchronously, so a driver can run a host on one thread
/// with no reentrancy.
///
/// Rules every implementation keeps (they are what iOS does):
/// - an update token exists only while its card is alive, and arrives some time after the card does;
/// - a card requested with ``ActivityPushType/none`` or a channel never gets an update token;
/// - every card, also one the system push-started, arrives through `activityUpdates`;
/// - an ended card yields nothing more, and commands on it are ignored;
/// - a cancelled observation yields nothing more.
public protocol ActivityHost: AnyObject {
    /// `Activity<LFGFleetAttributes>.activities`: every fleet card iOS still knows, live or ended.
    var fleetActivities: [FleetActivity] { get }
    /// `Activity<LFGSessionAttributes>.activities`: cards of the retired per-session type.
    var retiredActivityIDs: [ActivityID] { get }

    /// `Activity.request(attributes: LFGFleetAttributes(), content:, pushType:)`: starts a card now;
    /// `staleDate` is the content's (`ActivityContent(state:staleDate:)`), nil for none.
    func request(
        _ content: ContentState, pushType: ActivityPushType, staleDate: UnixTime?
    ) throws(ActivityRequestError) -> ActivityID
    /// `activity.update(_:)`: replaces a live card's content and its stale date; ignored for an ended card.
    func update(_ id: ActivityID, to content: ContentState, staleDate: UnixTime?)
    /// `activity.end(_:dismissalPolicy:)`: ends a card, optionally with a final content.
    func end(_ id: ActivityID, finalContent: ContentState?, dismissal: DismissalPolicy)
    /// Ends a card of the retired per-session type at once (the tombstone sweep).
    func endRetired(_ id: ActivityID)

    /// Starts observing `activityUpdates` (cards that appear from now on).
    func observeActivityUpdates()
    /// Starts observing `pushToStartTokenUpdates` (yields the current token first, if there is one).
    func observePushToStartTokens()
    /// Starts observing one card's `pushTokenUpdates`, `activityStateUpdates` and `contentUpdates` (current
    /// token first).
    func observeActivity(_ id: ActivityID)
    /// Cancels the observations of one card: nothing it yields from now on reaches the app.
    func stopObservingActivity(_ id: ActivityID)
}

extension ActivityHost {
    /// A request with no stale date.
    public func request(_ content: ContentState, pushType: ActivityPushType) throws(ActivityRequestError) -> ActivityID {
        try request(content, pushType: pushType, staleDate: nil)
    }

    /// An update with no stale date (it clears the one the card had).
    public func update(_ id: ActivityID, to content: ContentState) { update(id, to: content, staleDate: nil) }
}
