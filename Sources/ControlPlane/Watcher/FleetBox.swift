import APNs
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
    /// The broadcast channel the card listens on; nil for a card addressed by its update token.
    public var channel: BroadcastChannelID?
    /// The `stale-date` of the last start or update the card accepted: from then on it reads stale,
    /// unless a refresh moved it (guard `stale-date`). Nil when none was sent (adopted, or guard off).
    public var staleAt: UnixTime?

    public init(
        contentState: ContentState?, startedAt: UnixTime, origin: CardOrigin, channel: BroadcastChannelID? = nil,
        staleAt: UnixTime? = nil
    ) {
        self.contentState = contentState
        self.startedAt = startedAt
        self.origin = origin
        self.channel = channel
        self.staleAt = staleAt
    }
}

/// The previous card of a renewal: replaced by a new one, waiting for its `end`.
public struct RetiringCard: Hashable, Sendable, Codable {
    public var startedAt: UnixTime
    /// The channel it listens on: an `end` published there ends it, and then the channel is deleted.
    public var channel: DeviceChannel?
    /// Its update tokens, taken out of the device's tokens when the new card started, so nothing meant
    /// for the new card goes to them. Empty when the phone never handed the token over: then nothing can
    /// end the old card before iOS does at 8 hours.
    public var updateTargets: [PushTarget]

    public init(startedAt: UnixTime, channel: DeviceChannel?, updateTargets: [PushTarget]) {
        self.startedAt = startedAt
        self.channel = channel
        self.updateTargets = updateTargets
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
    /// The device runs iOS 18+ and its app requests channel cards (contract 8.1): it gets a channel.
    public var liveActivityChannels: Bool
    /// Privacy mode as the app asked (`"privacy"`, contract 8.3); nil when it did not say, so the server's
    /// default (`LFG_PRIVACY`) applies. Read it through ``isPrivate(byDefault:)``.
    public var privacy: Bool?
    /// The key alerts are sealed to (`"sealKey"`); a new one replaces the old.
    public var sealKey: DeviceSealKey?

    public init(
        env: PushEnvironment? = nil, platform: String = "ios", apnsToken: String? = nil,
        widgetPushToken: String? = nil, hiddenDirs: HiddenDirs = [], liveActivityChannels: Bool = false,
        privacy: Bool? = nil, sealKey: DeviceSealKey? = nil
    ) {
        self.privacy = privacy
        self.sealKey = sealKey
        self.env = env
        self.platform = platform
        self.apnsToken = apnsToken
        self.widgetPushToken = widgetPushToken
        self.hiddenDirs = hiddenDirs
        self.liveActivityChannels = liveActivityChannels
    }

    enum CodingKeys: String, CodingKey {
        case env, platform, apnsToken, widgetPushToken, hiddenDirs, liveActivityChannels, privacy, sealKey
    }

    /// Lenient: a profile stored before a field existed reads that field's default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        env = try container.decodeIfPresent(PushEnvironment.self, forKey: .env)
        platform = try container.decodeIfPresent(String.self, forKey: .platform) ?? "ios"
        apnsToken = try container.decodeIfPresent(String.self, forKey: .apnsToken)
        widgetPushToken = try container.decodeIfPresent(String.self, forKey: .widgetPushToken)
        hiddenDirs = try container.decodeIfPresent(HiddenDirs.self, forKey: .hiddenDirs) ?? []
        liveActivityChannels = try container.decodeIfPresent(Bool.self, forKey: .liveActivityChannels) ?? false
        privacy = try container.decodeIfPresent(Bool.self, forKey: .privacy)
        sealKey = try container.decodeIfPresent(DeviceSealKey.self, forKey: .sealKey)
    }

    /// Whether privacy mode is on: as the app asked, else the server's default.
    public func isPrivate(byDefault serverDefault: Bool) -> Bool { privacy ?? serverDefault }

    /// The words this device's Live Activity pushes carry: none in privacy mode.
    public func cardWords(privacyByDefault serverDefault: Bool) -> CardWords {
        isPrivate(byDefault: serverDefault) ? .withheld : .shown
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
    /// The device's broadcast channels (guard `broadcast-channels`).
    public var channel: ChannelState
    /// The card a renewal replaced, until its `end` is delivered (guard `renewal`).
    public var retiringCard: RetiringCard?

    public init(
        profile: DeviceProfile = DeviceProfile(), tokens: [LiveActivityToken] = [], card: FleetCard? = nil,
        veto: Set<SessionID>? = nil, isVetoLogged: Bool = false, channel: ChannelState = ChannelState(),
        retiringCard: RetiringCard? = nil
    ) {
        self.profile = profile
        self.tokens = tokens
        self.card = card
        self.veto = veto
        self.isVetoLogged = isVetoLogged
        self.channel = channel
        self.retiringCard = retiringCard
    }
}

/// One device's fleet box: its persisted record plus what only this process needs to know.
public struct FleetBox: Hashable, Sendable {
    public var record: DeviceRecord
    /// The push in flight for this card; the device is skipped until it is answered.
    public var pending: PendingPush?
    /// Channels a card was ended on whose `end` is published once more when the next card has started
    /// (``PushPurpose/repeatedEnd``). Best effort, so not persisted.
    public var endsToRepeat: [DeviceChannel] = []
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
    /// A channel creation for this device is in flight (its answer arrives as an event).
    public var isChannelRequested = false
    /// When the device's last push of any kind was decided (routine coalescing, ``PushBudget``).
    public var lastPushAt: UnixTime?
    /// When each recent priority-10 push was decided (the hourly budget, ``PushBudget``).
    public var immediateSent: [UnixTime] = []
    /// Tokens APNs refused for a passing reason, and until when they are left alone (``RetryBackoff``).
    public var backoff: [PushTarget: TokenBackoff] = [:]

    public init(record: DeviceRecord = DeviceRecord()) { self.record = record }
}

/// A push the watcher is waiting on.
public struct PendingPush: Hashable, Sendable {
    public var batch: PushBatch
    /// The box's generation when the push was decided.
    public var generation: UInt64
    /// Why it was sent, which decides what its delivery changes.
    public var purpose: PushPurpose = .card
}

/// Why the watcher sent a push.
public enum PushPurpose: Hashable, Sendable {
    /// The decision table: start, update or end the device's card.
    case card
    /// A new card replacing one near iOS's 8-hour limit (guard `renewal`).
    case renewal
    /// The `end` of the card a renewal replaced.
    case retiringEnd
    /// The `end` of a card ended on a channel, published there once more after the next card started
    /// (channel rotation): a broadcast has no per-phone answer, and an `end` lost after APNs' 200 would
    /// leave the old card beside the new one.
    case repeatedEnd
}
