import APNs
import FleetCore

/// A device write an instance took from a client for a device another instance drives: the watcher
/// event it stands for, in a form that crosses the database (JSON in `device_inbox`).
///
/// Applying one twice changes nothing more than applying it once (a token registers once, a profile is
/// replaced, an end ends the open card), so an owner killed between applying and deleting it is harmless.
public struct DeviceInboxEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case deviceReported, appStateReported, tokenRegistered, endedReported, deviceDeleted, channelCardReported
    }

    public var kind: Kind
    public var deviceId: DeviceID
    public var at: UnixTime
    public var profile: DeviceProfile?
    public var appState: DeviceAppState?
    public var tokenKind: TokenKind?
    public var env: PushEnvironment?
    public var hex: String?
    public var channelId: BroadcastChannelID?

    init(_ kind: Kind, _ deviceId: DeviceID, at: UnixTime) {
        self.kind = kind
        self.deviceId = deviceId
        self.at = at
    }

    /// The inbox form of a device write; nil for events that are not a client's device write.
    public init?(_ event: WatcherEvent) {
        switch event {
        case .deviceReported(let deviceId, let profile, let at):
            self.init(.deviceReported, deviceId, at: at)
            self.profile = profile
        case .appStateReported(let deviceId, let appState, let at):
            self.init(.appStateReported, deviceId, at: at)
            self.appState = appState
        case .tokenRegistered(let deviceId, let kind, let env, let hex, let at):
            self.init(.tokenRegistered, deviceId, at: at)
            tokenKind = kind
            self.env = env
            self.hex = hex
        case .endedReported(let deviceId, let at): self.init(.endedReported, deviceId, at: at)
        case .deviceDeleted(let deviceId, let at): self.init(.deviceDeleted, deviceId, at: at)
        case .channelCardReported(let deviceId, let channelId, let at):
            self.init(.channelCardReported, deviceId, at: at)
            self.channelId = channelId
        default: return nil
        }
    }

    /// The watcher event it stands for; nil when a field its kind needs is missing (a corrupt row).
    public var watcherEvent: WatcherEvent? {
        switch kind {
        case .deviceReported: return profile.map { .deviceReported(deviceId, $0, at: at) }
        case .appStateReported: return appState.map { .appStateReported(deviceId, $0, at: at) }
        case .tokenRegistered:
            guard let tokenKind, let env, let hex else { return nil }
            return .tokenRegistered(deviceId, tokenKind, env, hex: hex, at: at)
        case .endedReported: return .endedReported(deviceId, at: at)
        case .deviceDeleted: return .deviceDeleted(deviceId, at: at)
        case .channelCardReported: return channelId.map { .channelCardReported(deviceId, $0, at: at) }
        }
    }

    /// The device a watcher event writes to, when it is a client's device write.
    public static func deviceId(of event: WatcherEvent) -> DeviceID? { DeviceInboxEvent(event)?.deviceId }
}
