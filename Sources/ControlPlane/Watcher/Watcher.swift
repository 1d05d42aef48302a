import APNs
import FleetCore

/// The server's Live Activity watcher as a pure reducer: one fleet box per device, events in, effects out.
///
/// It never sleeps, reads a clock, touches a socket or a file: every event carries its time, and every
/// send, log line and write comes back as a ``WatcherEffect`` for the driver (``ControlPlaneService``,
/// or the simulator) to carry out. Guards honour ``GuardSet`` so the simulator can switch them off.
///
/// ```swift
/// var watcher = Watcher()
/// _ = watcher.handle(.loaded(devices: [:], since: [:], at: 0))
/// _ = watcher.handle(.tokenRegistered("phone", .pushToStart, .sandbox, hex: hex, at: 1))
/// let effects = watcher.handle(.ticked(fleet, at: 2))   // .log(decide), .send(start batch)
/// watcher.handle(.pushAnswered(receipt, at: 2.1))      // card recorded, veto cleared, .saveDevice
/// ```
public struct Watcher: Sendable {
    public let guards: GuardSet
    /// How long a due start waits for a foreground app's own card (see ``StartHold``).
    public let startHold: StartHold
    /// Staleness, renewal, token ageing, the priority budget and channel retries.
    public let policy: CardPolicy
    /// How long a token APNs refused (not as dead) is left alone.
    public let backoff: RetryBackoff
    /// Every device's fleet box (its writes staged during a driver's step: ``beginStagedStep()``).
    public internal(set) var boxes = StagedDictionary<DeviceID, FleetBox>()
    /// The sticky `since` baselines of every active session, server-wide (a session's state history is
    /// the same whichever phone looks at it).
    public internal(set) var since: SinceMap = [:]
    /// Whether the stored state has loaded; ticks before that are ignored.
    public internal(set) var isLoaded = false
    /// Every session's part and one incremental reduction per distinct `hiddenDirs` (``FleetViews``).
    var views = FleetViews()
    /// Devices to decide at the next tick: an event touched them, or their last decision changed their box.
    var dirtyDevices = Set<DeviceID>()
    /// When each device's decision may change with nothing else changing (``wakeTimes(_:isRoutineWaiting:)``).
    var deviceWakes = WakeSchedule<DeviceID>()
    /// Decide for every device on every tick (the walk before views were incremental): the reference the
    /// scoped walk is tested against. Off in production.
    public var decidesEveryDevice = false
    /// The devices whose profile has an alert token (`apnsToken`) or a widget push token: the only ones a
    /// question alert or a widget reload can reach, so a session change need not walk every device.
    public internal(set) var devicesWithAppTokens = Set<DeviceID>()
    var nextBatchId: UInt64 = 1
    var sortedDevices: [DeviceID] = []
    /// Channels no device needs any more, until APNs confirms their deletion (persisted).
    public internal(set) var retiredChannels: [DeviceChannel] = []
    /// Deletions asked and not answered yet, and when a failed one may be tried again.
    var channelDeletions: [BroadcastChannelID: ChannelDeletion] = [:]

    public init(
        guards: GuardSet = .all, startHold: StartHold = StartHold(), policy: CardPolicy = CardPolicy(),
        backoff: RetryBackoff = RetryBackoff()
    ) {
        self.guards = guards
        self.startHold = startHold
        self.policy = policy
        self.backoff = backoff
    }

    /// Applies one event; returns what the driver must do, in order.
    @discardableResult
    public mutating func handle(_ event: WatcherEvent) -> [WatcherEffect] {
        dirtyDevices.formUnion(event.touchedDevices)
        return switch event {
        case .loaded(let devices, let since, let retired, let now):
            load(devices, since: since, retiredChannels: retired, now: now)
        case .ticked(let fleet, let now): tick(fleet, now: now)
        case .deviceReported(let deviceId, let profile, _): reportDevice(deviceId, profile)
        case .appStateReported(let deviceId, let appState, let now): reportAppState(deviceId, appState, now: now)
        case .tokenRegistered(let deviceId, let kind, let env, let hex, let now):
            registerToken(deviceId, LiveActivityToken(kind: kind, env: env, hex: hex, registeredAt: now))
        case .endedReported(let deviceId, let now): reportEnded(deviceId, now: now)
        case .pushAnswered(let receipt, let now): answer(receipt, now: now)
        case .deviceDeleted(let deviceId, let now): deleteDevice(deviceId, now: now)
        case .channelCardReported(let deviceId, let channelId, let now): reportChannelCard(deviceId, channelId, now: now)
        case .channelCreationAnswered(let deviceId, let env, let answer, let now):
            answerChannelCreation(deviceId, env, answer, now: now)
        case .channelDeletionAnswered(let channel, let answer, let now): answerChannelDeletion(channel, answer, now: now)
        case .answersUnrecorded(let answers, let now): forgetInFlight(answers, now: now)
        }
    }

    /// The view of the fleet `deviceId` currently has (its hidden folders applied), as of the last tick.
    public mutating func view(of deviceId: DeviceID) -> FleetView {
        views.view(for: boxes[deviceId]?.record.profile.hiddenDirs ?? [], guards: guards)
    }

    /// The sids `deviceId`'s view counts as active, as of the last tick (none before the first).
    func activeSids(of deviceId: DeviceID) -> Set<SessionID> {
        guard views.reducedSequence != nil else { return [] }
        return views.activeSids(for: boxes[deviceId]?.record.profile.hiddenDirs ?? [])
    }

    /// Devices in id order (effects come out in this order, so every run is the same).
    public var deviceIds: [DeviceID] { sortedDevices }

    /// The box of `deviceId`, created empty on first mention; write it back with `boxes[deviceId] = box`.
    mutating func box(_ deviceId: DeviceID) -> FleetBox {
        if let box = boxes[deviceId] { return box }
        boxes[deviceId] = FleetBox()
        let index = sortedDevices.partitioningIndex { $0 >= deviceId }
        sortedDevices.insert(deviceId, at: index)
        return FleetBox()
    }

    mutating func makeBatchId() -> UInt64 {
        defer { nextBatchId &+= 1 }
        return nextBatchId
    }
}
