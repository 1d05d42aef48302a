import APNs
import FleetCore

/// Something that happened to the watcher. Each event carries its own time (Unix seconds).
public enum WatcherEvent: Hashable, Sendable {
    /// The stored state finished loading (restart persistence). Ticks before it are ignored, so a
    /// restart never push-starts a duplicate of a card the device already has.
    /// `retiredChannels`: channels no device needs any more whose deletion APNs has not confirmed yet.
    case loaded(devices: [DeviceID: DeviceRecord], since: SinceMap, retiredChannels: [DeviceChannel] = [], at: UnixTime)
    /// A tick (periodic, or prompt after a change) over the current fleet.
    case ticked(FleetSnapshot, at: UnixTime)
    /// `PUT /api/devices/{deviceId}` (tokens in it arrive as separate ``tokenRegistered`` events).
    case deviceReported(DeviceID, DeviceProfile, at: UnixTime)
    /// The app said it came to the foreground or left it (the optional `appState` of `PUT /api/devices`).
    case appStateReported(DeviceID, DeviceAppState, at: UnixTime)
    /// A start-token or update-token registration; `hex` is already validated and lower-case.
    case tokenRegistered(DeviceID, TokenKind, PushEnvironment, hex: String, at: UnixTime)
    /// `POST /api/push/live-activity/ended`: the phone ended its card itself.
    case endedReported(DeviceID, at: UnixTime)
    /// APNs answered every token of a batch the watcher sent.
    case pushAnswered(PushReceipt, at: UnixTime)
    /// `DELETE /api/devices/{deviceId}`: the device is gone; its channels are deleted, its record forgotten.
    case deviceDeleted(DeviceID, at: UnixTime)
    /// The app made its own card on one of the device's channels (`pushType: .channel(id)`) and said so
    /// (`POST /api/push/live-activity/channel-card`): the channel-mode twin of an update-token registration.
    case channelCardReported(DeviceID, BroadcastChannelID, at: UnixTime)
    /// APNs answered a ``ChannelRequest/create(_:_:_:)`` for this device and env.
    case channelCreationAnswered(DeviceID, PushEnvironment, ChannelAnswer, at: UnixTime)
    /// APNs answered a ``ChannelRequest/delete(_:)``.
    case channelDeletionAnswered(DeviceChannel, ChannelAnswer, at: UnixTime)
    /// These answers could not be committed to the store, so they never happened: what they answered
    /// is no longer in flight, and the next tick decides (and re-sends) again instead of waiting forever.
    case answersUnrecorded([WatcherEvent], at: UnixTime)
}

extension WatcherEvent {
    /// The devices whose decision this event may change: they are decided at the next tick.
    var touchedDevices: [DeviceID] {
        switch self {
        case .loaded(let devices, _, _, _): Array(devices.keys)
        case .ticked: []
        case .deviceReported(let deviceId, _, _), .appStateReported(let deviceId, _, _),
            .tokenRegistered(let deviceId, _, _, _, _), .endedReported(let deviceId, _), .deviceDeleted(let deviceId, _),
            .channelCardReported(let deviceId, _, _), .channelCreationAnswered(let deviceId, _, _, _):
            [deviceId]
        case .pushAnswered(let receipt, _): [receipt.deviceId]
        case .channelDeletionAnswered(let channel, _, _): [channel.deviceId]
        case .answersUnrecorded(let answers, _): answers.flatMap(\.touchedDevices)
        }
    }
}

/// How a card left the screen, for the card history.
public enum CardEndReason: String, Hashable, Sendable, Codable {
    /// The server sent `end` and every addressed token accepted.
    case serverEnded
    /// The phone reported ending it (`/ended`).
    case clientEnded
    /// A renewal replaced it before iOS's 8-hour limit.
    case renewed
    /// iOS ended it at its 8-hour limit and nothing had replaced it.
    case expired
    /// APNs no longer knew the channel it listened on, so nothing could reach it.
    case unreachable
}

/// A change to the card history (when each card started, how, when it ended and why).
public enum CardHistoryEvent: Hashable, Sendable {
    case started(DeviceID, at: UnixTime, origin: CardOrigin)
    /// An update token arrived for a card the server already had (a push-started card reached the phone).
    case adopted(DeviceID, at: UnixTime)
    case ended(DeviceID, at: UnixTime, reason: CardEndReason)
}

/// What the driver must do after an event. The watcher performs none of it itself.
public enum WatcherEffect: Hashable, Sendable {
    /// Send `batch` to APNs, then feed the answers back as ``WatcherEvent/pushAnswered(_:at:)``.
    case send(PushBatch)
    /// Append one line to the decision log.
    case log(DecisionLogLine)
    /// Persist this device's record (one transaction with the event's other writes).
    case saveDevice(DeviceID, DeviceRecord)
    /// Persist the changed sticky `since` baselines.
    case saveSince(changed: SinceMap, removed: [SessionID])
    case recordHistory(CardHistoryEvent)
    /// Ask APNs' channel management API; feed the answer back (see ``ChannelRequest``).
    case requestChannel(ChannelRequest)
    /// Persist the channels awaiting deletion (the whole list; it replaces the stored one).
    case saveRetiredChannels([DeviceChannel])
    /// Remove this device's record (and its tokens) from the store.
    case forgetDevice(DeviceID)
}
