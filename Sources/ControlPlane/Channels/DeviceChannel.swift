import APNs
import FleetCore

/// One broadcast channel made for one device's card, in one APNs environment (channels are per env).
public struct DeviceChannel: Hashable, Sendable, Codable {
    public var id: BroadcastChannelID
    public var env: PushEnvironment
    /// The device it was made for (it outlives the device until its deletion is confirmed).
    public var deviceId: DeviceID
    public var createdAt: UnixTime
    /// For a retired channel a card was ended on: not deleted before this time, because APNs may still
    /// hold that `end` for an offline phone (deleting the channel would drop it, and the card would
    /// live on). See ``Watcher``'s channel rotation. Nil: delete at once.
    public var holdUntil: UnixTime?

    public init(
        id: BroadcastChannelID, env: PushEnvironment, deviceId: DeviceID, createdAt: UnixTime, holdUntil: UnixTime? = nil
    ) {
        self.id = id
        self.env = env
        self.deviceId = deviceId
        self.createdAt = createdAt
        self.holdUntil = holdUntil
    }

    /// The only form of a channel id a log line or an API answer carries: its first 8 characters.
    public var shortId: String { id.first8 }
}

extension BroadcastChannelID {
    /// The first 8 characters: the only form of a channel id a log line or the state endpoint carries.
    public var first8: String { String(rawValue.prefix(8)) }
}

/// Whether a device's card is driven by a broadcast channel or by per-card update tokens.
public enum CardMode: String, Hashable, Sendable, Codable {
    case channel, token
}

/// A device's broadcast-channel state: the channel its cards use, and why it runs in token mode although
/// it asked for channels. Persisted with the device.
public struct ChannelState: Hashable, Sendable, Codable {
    /// The channel new cards start on (`input-push-channel`) and the app requests its own cards with.
    public var current: DeviceChannel?
    /// A fresh channel made for the renewal of a card that listens on ``current`` (see ``Watcher``'s
    /// renewal): a broadcast `end` on the old channel then ends the old card and only the old card.
    public var successor: DeviceChannel?
    /// Channel creations that failed in a row.
    public var failures: Int
    /// Not before this time is a failed creation tried again.
    public var retryAt: UnixTime?
    /// Set when the device fell back to token mode (the channel limit, or ``CardPolicy/channelAttempts``
    /// failures in a row): the reason, as logged. Cleared when the device next reports it wants channels.
    public var fallbackReason: String?

    public init(
        current: DeviceChannel? = nil, successor: DeviceChannel? = nil, failures: Int = 0, retryAt: UnixTime? = nil,
        fallbackReason: String? = nil
    ) {
        self.current = current
        self.successor = successor
        self.failures = failures
        self.retryAt = retryAt
        self.fallbackReason = fallbackReason
    }

    /// Every channel this device holds.
    public var channels: [DeviceChannel] { [current, successor].compactMap { $0 } }

    /// Lets go of `channel` (retired, lost, or moved to a retiring card).
    public mutating func remove(_ channel: DeviceChannel) {
        if current?.id == channel.id { current = nil }
        if successor?.id == channel.id { successor = nil }
    }
}

/// The message-storage policy of every channel the server makes: most recent message stored.
///
/// A channel here has exactly one subscriber, a phone that is often offline (a tunnel, a flight, a
/// pocket with no signal). With policy 0 every broadcast sent while it was away is lost, and the card
/// keeps showing whatever it showed when the phone went dark, possibly for hours. With policy 1 APNs
/// keeps the latest message for up to 8 hours, so the phone gets the current state (or the `end`) the
/// moment it is back. Policy 0's higher publishing budget buys nothing: the watcher publishes at most
/// one routine update per device every few seconds. A stored message that arrives late is still honest:
/// it carries its own `stale-date`, and iOS ignores it if a newer timestamp was already applied.
public let cardChannelStoragePolicy = ChannelStoragePolicy.mostRecentMessage

/// Where the deletion of a retired channel stands.
enum ChannelDeletion: Hashable, Sendable {
    /// Asked; the answer has not come back.
    case inFlight
    /// The last attempt failed; ask again at this time.
    case retry(at: UnixTime)
}
