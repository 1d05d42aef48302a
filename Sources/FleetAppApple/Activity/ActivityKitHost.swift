#if canImport(ActivityKit)
import ActivityKit
import FleetApp
import FleetCore
import Foundation

/// ActivityKit behind ``ActivityHost``: the only file that calls it.
///
/// Use it from the main actor only (the driver owns it there). Each observation is a task this host
/// owns and cancels (`stopObservingActivity`, `deinit`); whatever the sequences yield goes into
/// ``events`` for the driver to hand to the engine. Updates and ends run in order on one owned chain of
/// tasks, since ActivityKit's `update` and `end` are async while the engine's commands are not.
public final class ActivityKitHost: ActivityHost {
    /// Everything the observed sequences yield, in arrival order.
    public let events: AsyncStream<ActivityHostEvent>
    let continuation: AsyncStream<ActivityHostEvent>.Continuation
    var activityUpdatesTask: Task<Void, Never>?
    var pushToStartTask: Task<Void, Never>?
    var activityTasks: [ActivityID: [Task<Void, Never>]] = [:]
    var commandChain: Task<Void, Never>?

    public init() {
        (events, continuation) = AsyncStream.makeStream(of: ActivityHostEvent.self)
    }

    deinit {
        activityUpdatesTask?.cancel()
        pushToStartTask?.cancel()
        activityTasks.values.flatMap { $0 }.forEach { $0.cancel() }
        continuation.finish()
    }

    /// Waits until every update and end handed to ActivityKit so far has been carried out.
    public func drainCommands() async { await commandChain?.value }

    // MARK: ActivityHost

    public var fleetActivities: [FleetActivity] {
        Activity<LFGFleetAttributes>.activities.map { activity in
            FleetActivity(id: ActivityID(activity.id), content: activity.content.state,
                          state: Self.lifecycle(activity.activityState),
                          staleDate: activity.content.staleDate?.timeIntervalSince1970)
        }
    }

    public var retiredActivityIDs: [ActivityID] {
        Activity<LFGSessionAttributes>.activities.map { ActivityID($0.id) }
    }

    public func request(
        _ content: ContentState, pushType: ActivityPushType, staleDate: UnixTime?
    ) throws(ActivityRequestError) -> ActivityID {
        do {
            let activity = try Activity.request(
                attributes: LFGFleetAttributes(), content: Self.content(content, staleDate: staleDate),
                pushType: Self.pushType(pushType))
            return ActivityID(activity.id)
        } catch let error as ActivityAuthorizationError {
            throw Self.requestError(error)
        } catch {
            throw .other("\(error)")
        }
    }

    public func update(_ id: ActivityID, to content: ContentState, staleDate: UnixTime?) {
        guard let activity = Self.fleetActivity(id) else { return }
        let next = Self.content(content, staleDate: staleDate)
        chain { await activity.update(next) }
    }

    public func end(_ id: ActivityID, finalContent: ContentState?, dismissal: DismissalPolicy) {
        guard let activity = Self.fleetActivity(id) else { return }
        let final = finalContent.map { Self.content($0) }
        let policy = Self.dismissalPolicy(dismissal)
        chain { await activity.end(final, dismissalPolicy: policy) }
    }

    public func endRetired(_ id: ActivityID) {
        guard let activity = Activity<LFGSessionAttributes>.activities.first(where: { $0.id == id.rawValue }) else {
            return
        }
        chain { await activity.end(nil, dismissalPolicy: .immediate) }
    }

    public func observeActivityUpdates() {
        guard activityUpdatesTask == nil else { return }
        let continuation = continuation
        activityUpdatesTask = Task {
            for await activity in Activity<LFGFleetAttributes>.activityUpdates {
                continuation.yield(.activityArrived(ActivityID(activity.id)))
            }
        }
    }

    public func observePushToStartTokens() {
        // Push-to-start exists from iOS 17.2; before it only the app can start a card.
        guard pushToStartTask == nil, #available(iOS 17.2, *) else { return }
        let continuation = continuation
        pushToStartTask = Task {
            for await data in Activity<LFGFleetAttributes>.pushToStartTokenUpdates {
                continuation.yield(.pushToStartTokenIssued(PushToken(bytes: data)))
            }
        }
    }

    public func observeActivity(_ id: ActivityID) {
        guard activityTasks[id] == nil, let activity = Self.fleetActivity(id) else { return }
        let continuation = continuation
        let tokens = Task {
            for await data in activity.pushTokenUpdates {
                continuation.yield(.pushTokenIssued(id, PushToken(bytes: data)))
            }
        }
        let states = Task {
            for await state in activity.activityStateUpdates {
                let lifecycle = ActivityKitHost.lifecycle(state)
                let content = activity.content.state
                continuation.yield(.activityStateChanged(id, lifecycle, content: content))
            }
        }
        let contents = Task {
            for await update in activity.contentUpdates {
                continuation.yield(.contentChanged(id, content: update.state))
            }
        }
        activityTasks[id] = [tokens, states, contents]
    }

    public func stopObservingActivity(_ id: ActivityID) {
        activityTasks.removeValue(forKey: id)?.forEach { $0.cancel() }
    }

    // MARK: Mapping

    func chain(_ operation: @escaping @Sendable () async -> Void) {
        let previous = commandChain
        commandChain = Task {
            await previous?.value
            await operation()
        }
    }

    static func fleetActivity(_ id: ActivityID) -> Activity<LFGFleetAttributes>? {
        Activity<LFGFleetAttributes>.activities.first { $0.id == id.rawValue }
    }

    static func content(_ state: ContentState, staleDate: UnixTime? = nil) -> ActivityContent<ContentState> {
        ActivityContent(
            state: state, staleDate: staleDate.map { Date(timeIntervalSince1970: $0) },
            relevanceScore: Double(state.relevanceScore))
    }

    static func pushType(_ type: ActivityPushType) -> PushType? {
        switch type {
        case .none:
            return nil
        case .token:
            return .token
        case .channel(let id):
            // Channels need iOS 18; before that a token card is the next best (the server can still reach it).
            if #available(iOS 18.0, *) { return .channel(id) }
            return .token
        }
    }

    static func dismissalPolicy(_ policy: DismissalPolicy) -> ActivityUIDismissalPolicy {
        switch policy {
        case .immediate: .immediate
        case .default: .default
        case .after(let instant): .after(Date(timeIntervalSince1970: instant))
        }
    }

    static func lifecycle(_ state: ActivityState) -> ActivityLifecycleState {
        switch state {
        case .active: .active
        case .stale: .stale
        case .ended: .ended
        case .dismissed: .dismissed
        default: .pending
        }
    }

    static func requestError(_ error: ActivityAuthorizationError) -> ActivityRequestError {
        switch error {
        case .denied: .denied
        case .visibility: .visibility
        case .targetMaximumExceeded: .targetMaximumExceeded
        default: .other("\(error)")
        }
    }
}
#endif
