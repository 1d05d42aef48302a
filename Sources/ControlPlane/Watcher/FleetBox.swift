import FleetCore

/// How a card came to be known to the server.
public enum CardOrigin: String, Hashable, Sendable, Codable {
    /// The server push-started it and at least one push-to-start token accepted.
    case pushToStart
    /// An update-token registration proved the app made it; the server took it over.
    case adopted
}

/// The server's memory of one device's live card.
public struct FleetCard: Hashable, Sendable, Codable {
    /// What the card last showed, as far as the server knows; nil right after adoption, so the next
    /// tick pushes current content (a nil state is never "the same").
    public var contentState: ContentState?
    public var startedAt: UnixTime
    public var origin: CardOrigin

    public init(contentState: ContentState?, startedAt: UnixTime, origin: CardOrigin) {
        self.contentState = contentState
        self.startedAt = startedAt
        self.origin = origin
    }
}

/// What a device reported about itself (`PUT /api/devices/{deviceId}`), tokens aside.
public struct DeviceProfile: Hashable, Sendable, Codable {
    public var env: PushEnvironment?
    public var platform: String
    /// The app's ordinary APNs token (alerts), lower-case hex.
    public var apnsToken: String?
    public var widgetPushToken: String?
    /// The folders the app hides: the card must never count what the list hides.
    public var hiddenDirs: HiddenDirs

    public init(
        env: PushEnvironment? = nil, platform: String = "ios", apnsToken: String? = nil,
        widgetPushToken: String? = nil, hiddenDirs: HiddenDirs = []
    ) {
        self.env = env
        self.platform = platform
        self.apnsToken = apnsToken
        self.widgetPushToken = widgetPushToken
        self.hiddenDirs = hiddenDirs
    }
}

/// Everything about one device that survives a restart: the persisted half of a ``FleetBox``.
public struct DeviceRecord: Hashable, Sendable, Codable {
    public var profile: DeviceProfile
    /// Newest first.
    public var tokens: [LiveActivityToken]
    public var card: FleetCard?
    /// The sids active when the phone last reported ending its card; nil when no veto holds.
    public var veto: Set<SessionID>?
    /// Whether `start-vetoed` was already logged for this veto population (logged once, not every tick).
    public var isVetoLogged: Bool

    public init(
        profile: DeviceProfile = DeviceProfile(), tokens: [LiveActivityToken] = [], card: FleetCard? = nil,
        veto: Set<SessionID>? = nil, isVetoLogged: Bool = false
    ) {
        self.profile = profile
        self.tokens = tokens
        self.card = card
        self.veto = veto
        self.isVetoLogged = isVetoLogged
    }
}

/// One device's fleet box: its persisted record plus what only this process needs to know.
public struct FleetBox: Hashable, Sendable {
    public var record: DeviceRecord
    /// The push in flight for this card; the device is skipped until it is answered.
    public var pending: PendingPush?
    /// Bumped whenever the card changes outside a push (adoption, client end), so a late answer to a
    /// push decided before the change cannot overwrite it.
    public var generation: UInt64 = 0
    /// The action last logged as `no-tokens`, so the line is written once, not every tick.
    public var noTokensLogged: PushAction?
    /// Set when the phone reports ending the card before the stored state has loaded (`fleetEndedReported`).
    public var isEndedReportedBeforeLoad = false
    public var endGate = EndGateState()
    /// When the app last said it is in the foreground; nil if it never did or said background since.
    public var foregroundReportedAt: UnixTime?
    /// When the current hold of a due start began (see ``StartHold``); nil when no start is held.
    public var startHeldSince: UnixTime?

    public init(record: DeviceRecord = DeviceRecord()) { self.record = record }
}

/// A push the watcher is waiting on.
public struct PendingPush: Hashable, Sendable {
    public var batch: PushBatch
    /// The box's generation when the push was decided.
    public var generation: UInt64
}
