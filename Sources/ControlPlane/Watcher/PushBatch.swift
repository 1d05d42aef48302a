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

/// One decided push: one action for one device's card, addressed to every token that can carry it.
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

    public init(
        id: UInt64, deviceId: DeviceID, action: PushAction, contentState: ContentState, dismissalDate: UnixTime?,
        targets: [PushTarget], decidedAt: UnixTime
    ) {
        self.id = id
        self.deviceId = deviceId
        self.action = action
        self.contentState = contentState
        self.dismissalDate = dismissalDate
        self.targets = targets
        self.decidedAt = decidedAt
    }
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

    public init(target: PushTarget, status: Int, reason: String? = nil, apnsId: String? = nil, milliseconds: Double = 0)
    {
        self.target = target
        self.status = status
        self.reason = reason
        self.apnsId = apnsId
        self.milliseconds = milliseconds
    }

    /// APNs accepted it. Never proof that a card updated: a dead Live Activity token answers 200 too.
    public var isAccepted: Bool { status == 200 }

    /// The token is gone for good (410, or 400 `BadDeviceToken`): prune it.
    public var isTokenDead: Bool { status == 410 || (status == 400 && reason == "BadDeviceToken") }
}

/// Every token's answer to one batch.
public struct PushReceipt: Hashable, Sendable {
    public var batchId: UInt64
    public var deviceId: DeviceID
    public var results: [TokenResult]

    public init(batchId: UInt64, deviceId: DeviceID, results: [TokenResult]) {
        self.batchId = batchId
        self.deviceId = deviceId
        self.results = results
    }
}
