import APNs
import FleetCore

/// One token a push is addressed to (the full hex: it never leaves the process except to APNs).
public struct PushTarget: Hashable, Sendable, Codable {
    public var kind: TokenKind
    public var env: PushEnvironment
    public var hex: String

    public init(kind: TokenKind, env: PushEnvironment, hex: String) {
        self.kind = kind
        self.env = env
        self.hex = hex
    }

    public var shortHex: String { TokenHex.short(hex) }
}

/// One decided push: one action for one device's card, addressed to every token that can carry it, or
/// published to the card's broadcast channel (``channel`` set, ``targets`` empty).
public struct PushBatch: Hashable, Sendable {
    /// Unique within one watcher; the answer names it.
    public var id: UInt64
    public var deviceId: DeviceID
    public var action: PushAction
    /// The content state to carry (`updatedAt` = the decision time; zeroed for `end`).
    public var contentState: ContentState
    /// For `end`: when the card should leave the screen (Unix seconds).
    public var dismissalDate: UnixTime?
    public var targets: [PushTarget]
    /// When the watcher decided it (Unix seconds): the payload's `aps.timestamp`.
    public var decidedAt: UnixTime
    /// `apns-priority`: 10 for what needs the person, 5 for routine changes (see ``PushBudget``).
    public var priority: PushPriority
    /// For `start` and `update`: when the card turns stale unless a newer push arrives (`aps.stale-date`).
    public var staleDate: UnixTime?
    /// For a channel-mode `start`: the channel the new card subscribes to (`aps.input-push-channel`).
    public var inputPushChannel: BroadcastChannelID?
    /// For a channel card's `update` and `end`: publish to this channel instead of sending to tokens.
    public var channel: DeviceChannel?
    /// Marked by the rule that decided it: an `update` whose content is what the card already shows, sent
    /// only to move the card's stale date (guard `stale-date`). A routine refresh: a driver sends the pushes
    /// that carry a change first (a wave of refreshes can be hundreds a tick).
    public var isStaleDateRefresh: Bool

    public init(
        id: UInt64, deviceId: DeviceID, action: PushAction, contentState: ContentState, dismissalDate: UnixTime?,
        targets: [PushTarget], decidedAt: UnixTime, priority: PushPriority = .immediate, staleDate: UnixTime? = nil,
        inputPushChannel: BroadcastChannelID? = nil, channel: DeviceChannel? = nil, isStaleDateRefresh: Bool = false
    ) {
        self.isStaleDateRefresh = isStaleDateRefresh
        self.id = id
        self.deviceId = deviceId
        self.action = action
        self.contentState = contentState
        self.dismissalDate = dismissalDate
        self.targets = targets
        self.decidedAt = decidedAt
        self.priority = priority
        self.staleDate = staleDate
        self.inputPushChannel = inputPushChannel
        self.channel = channel
    }

    /// Whether this batch is a broadcast (published to ``channel``) rather than token sends.
    public var isBroadcast: Bool { channel != nil }
}

/// What APNs (or the transport) answered for one token of a batch.
public struct TokenResult: Hashable, Sendable {
    public var target: PushTarget
    /// The HTTP status; 0 when the request never got an answer (transport failure).
    public var status: Int
    /// APNs' `reason`, or the transport's error text.
    public var reason: String?
    public var apnsId: String?
    /// How long the send took, in milliseconds.
    public var milliseconds: Double
    /// What to do about the answer, as APNs' reason table says (nil when accepted): the typed outcome the
    /// watcher acts on, instead of re-reading a status and a string.
    public var remedy: PushRemedy?
    /// APNs' `retry-after`-style hint, in seconds, when the answer carried one.
    public var retryAfter: Double?

    /// - Parameter remedy: the transport's classification; by default derived from `status` and `reason`
    ///   with the same classifier (``PushRemedy/init(status:reason:failure:)``), status 0 being a
    ///   transport failure (`reconnect`).
    public init(
        target: PushTarget, status: Int, reason: String? = nil, apnsId: String? = nil, milliseconds: Double = 0,
        remedy: PushRemedy?? = nil, retryAfter: Double? = nil
    ) {
        self.target = target
        self.status = status
        self.reason = reason
        self.apnsId = apnsId
        self.milliseconds = milliseconds
        self.remedy = remedy
            ?? (status == 0 ? .reconnect : PushRemedy(status: status, reason: reason.map(APNsReason.init(rawValue:)), failure: nil))
        self.retryAfter = retryAfter
    }

    /// APNs accepted it. Never proof that a card updated: a dead Live Activity token answers 200 too.
    public var isAccepted: Bool { status == 200 }

    /// The token is gone for good (410 `Unregistered` / `ExpiredToken`, 400 `BadDeviceToken`): prune it.
    public var isTokenDead: Bool { remedy == .dropToken }
}

/// Every token's answer to one batch, or for a broadcast, APNs' one answer to the publish.
public struct PushReceipt: Hashable, Sendable {
    public var batchId: UInt64
    public var deviceId: DeviceID
    public var results: [TokenResult]
    /// The answer to a broadcast batch (nil for token sends).
    public var broadcast: ChannelAnswer?

    public init(batchId: UInt64, deviceId: DeviceID, results: [TokenResult], broadcast: ChannelAnswer? = nil) {
        self.batchId = batchId
        self.deviceId = deviceId
        self.results = results
        self.broadcast = broadcast
    }
}
