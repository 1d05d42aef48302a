import FleetCore

/// Why the service refused a request.
public enum ServiceError: Error, Hashable, Sendable {
    /// No such session, device or host.
    case notFound(String)
    /// The input is wrong; nothing changed.
    case invalid(InputError)
    /// The store failed; nothing changed.
    case store(StoreError)
}

/// One session as `GET /api/sessions` lists it: its report plus the ladder's verdict.
public struct SessionListing: Hashable, Sendable, Encodable {
    public var sid: SessionID
    public var report: SessionReport
    public var displayState: DisplayState
    /// When the server last took a report for the session (Unix seconds), so a client applies the same
    /// silence rule (``SilenceRule``) as the server; nil when unknown.
    public var heardAt: UnixTime?
    /// The server's sticky baseline for the session (its row state and since when), from the watcher's
    /// last reduction; nil when the session is not active or not reduced yet. The server sees every change
    /// as it happens, so a client that missed some (asleep, suspended) dates its rows from this, never from
    /// when it woke up (guard `server-since`).
    public var since: SinceEntry?

    public init(
        sid: SessionID, report: SessionReport, displayState: DisplayState, heardAt: UnixTime? = nil,
        since: SinceEntry? = nil
    ) {
        self.sid = sid
        self.report = report
        self.displayState = displayState
        self.heardAt = heardAt
        self.since = since
    }

    /// The one way a session is listed (`GET /api/sessions`, the `session` event, a `PUT`'s answer):
    /// with the ladder's verdict given which hosts are down and, when `heardAt` is known, whether it has
    /// been silent too long; nil for an archived session (listed nowhere).
    public init?(
        sid: SessionID, report: SessionReport, downHosts: Set<HostID>, heardAt: UnixTime? = nil,
        silence: SilenceRule = .standard, now: UnixTime = 0, since: SinceEntry? = nil
    ) {
        let session = FleetSession(sid: sid, report: report, isHostDown: downHosts.contains(report.host), heardAt: heardAt)
        guard let state = session.displayState(at: now, silence: silence) else { return nil }
        self.init(sid: sid, report: report, displayState: state, heardAt: heardAt, since: since)
    }

    enum CodingKeys: String, CodingKey { case sid, displayState, heardAt, since }

    public func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sid, forKey: .sid)
        try container.encode(displayState, forKey: .displayState)
        try container.encodeIfPresent(heardAt, forKey: .heardAt)
        try container.encodeIfPresent(since, forKey: .since)
    }
}

extension SessionListing: WireJSONWritable {
    /// The bytes of ``encode(to:)`` under `WireJSON`: the report's members and the listing's in one object,
    /// keys sorted, written directly (every `PUT`'s answer and every listing of `GET /api/sessions`;
    /// `WireJSONWriterTests` compares the two over random listings).
    public func write(to writer: inout WireJSONWriter) throws {
        writer.beginObject()
        writer.member("archived", report.archived)
        writer.member("blocked", report.blocked)
        writer.member("busy", report.busy)
        writer.member("cwd", report.cwd)
        writer.member("displayState", displayState.rawValue)
        try writer.member("heardAt", ifPresent: heardAt)
        try writer.member("host", report.host)
        try writer.member("prompt", orNull: report.prompt)
        try writer.member("sid", sid)
        try writer.member("since", ifPresent: since)
        writer.member("step", ifPresent: report.step)
        writer.member("title", report.title)
        writer.member("unread", report.unread)
        writer.endObject()
    }
}

/// `GET /api/push/live-activity/state`: the watcher's view, never a whole token.
public struct LiveActivityState: Hashable, Sendable, Encodable {
    public struct Device: Hashable, Sendable, Encodable {
        public var deviceId: DeviceID
        public var env: PushEnvironment?
        public var card: Card?
        public var veto: [SessionID]?
        public var tokens: TokenCounts
        /// Whether the card is driven by a broadcast channel or by update tokens (contract 8.1).
        public var mode: CardMode
        /// The device's channel id, first 8 characters only; nil in token mode.
        public var channel: String?
        /// Whether privacy mode is on for the device: its pushes carry no words (contract 8.3).
        public var privacy: Bool
        /// The id of the key its alerts are sealed to; nil when none is registered.
        public var sealKeyId: String?
        /// Several instances on one database: the instance driving the card now (nil: none holds its lease
        /// at the moment, or a lone instance, which leaves the field out).
        public var drivenBy: InstanceID?

        public init(
            deviceId: DeviceID, env: PushEnvironment?, card: Card?, veto: [SessionID]?, tokens: TokenCounts,
            mode: CardMode = .token, channel: String? = nil, privacy: Bool = false, sealKeyId: String? = nil,
            drivenBy: InstanceID? = nil
        ) {
            self.drivenBy = drivenBy
            self.privacy = privacy
            self.sealKeyId = sealKeyId
            self.deviceId = deviceId
            self.env = env
            self.card = card
            self.veto = veto
            self.tokens = tokens
            self.mode = mode
            self.channel = channel
        }

        enum CodingKeys: String, CodingKey {
            case deviceId, env, card, veto, tokens, mode, channel, privacy, sealKeyId, drivenBy
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(deviceId, forKey: .deviceId)
            try container.encode(env, forKey: .env)
            try container.encode(card, forKey: .card)
            try container.encode(veto, forKey: .veto)
            try container.encode(tokens, forKey: .tokens)
            try container.encode(mode, forKey: .mode)
            try container.encode(channel, forKey: .channel)
            try container.encode(privacy, forKey: .privacy)
            try container.encode(sealKeyId, forKey: .sealKeyId)
            try container.encodeIfPresent(drivenBy?.rawValue, forKey: .drivenBy)
        }
    }

    public struct Card: Hashable, Sendable, Encodable {
        public var contentState: ContentState?
        public var since: SinceMap
        public var startedAt: UnixTime
        public var origin: CardOrigin

        public init(contentState: ContentState?, since: SinceMap, startedAt: UnixTime, origin: CardOrigin) {
            self.contentState = contentState
            self.since = since
            self.startedAt = startedAt
            self.origin = origin
        }

        enum CodingKeys: String, CodingKey { case contentState, since, startedAt, origin }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(contentState, forKey: .contentState)
            try container.encode(since, forKey: .since)
            try container.encode(startedAt, forKey: .startedAt)
            try container.encode(origin, forKey: .origin)
        }
    }

    public struct TokenCounts: Hashable, Sendable, Encodable {
        public var pushToStart: Int
        public var update: Int

        public init(pushToStart: Int, update: Int) {
            self.pushToStart = pushToStart
            self.update = update
        }
    }

    public var enabled: Bool
    public var reason: String?
    public var devices: [Device]
    /// Decision-log lines that could not be written since the server started (an extension: 0 is healthy).
    public var decisionLogUnwrittenLines: Int
    /// Store commits of APNs answers that failed since the server started (an extension: 0 is healthy);
    /// each one's pushes were decided again at the next tick.
    public var unrecordedAnswerCommits: Int
    /// Several instances on one database (an extension, left out by a lone instance): devices of the account
    /// past the listing's bound, so not listed; 0 when every device is.
    public var devicesNotListed: Int?
    /// Why the devices other instances drive could not be read from the store (they are missing from
    /// `devices`); nil when they were, or when this instance is alone.
    public var devicesElsewhereError: String?

    public init(
        enabled: Bool, reason: String?, devices: [Device], decisionLogUnwrittenLines: Int = 0,
        unrecordedAnswerCommits: Int = 0
    ) {
        self.enabled = enabled
        self.reason = reason
        self.devices = devices
        self.decisionLogUnwrittenLines = decisionLogUnwrittenLines
        self.unrecordedAnswerCommits = unrecordedAnswerCommits
    }

    enum CodingKeys: String, CodingKey {
        case enabled, reason, devices, decisionLogUnwrittenLines, unrecordedAnswerCommits, devicesNotListed
        case devicesElsewhereError
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(reason, forKey: .reason)
        try container.encode(devices, forKey: .devices)
        try container.encode(decisionLogUnwrittenLines, forKey: .decisionLogUnwrittenLines)
        try container.encode(unrecordedAnswerCommits, forKey: .unrecordedAnswerCommits)
        try container.encodeIfPresent(devicesNotListed, forKey: .devicesNotListed)
        try container.encodeIfPresent(devicesElsewhereError, forKey: .devicesElsewhereError)
    }
}

/// One registered token as `GET /api/push/live-activity/tokens` lists it (first 8 hex characters only).
public struct TokenListing: Hashable, Sendable, Encodable {
    public var deviceId: DeviceID
    public var kind: TokenKind
    public var env: PushEnvironment
    public var token: String
    public var registeredAt: UnixTime
    /// Several instances on one database (an extension, left out by a lone instance): the instance driving
    /// the token's device; nil when none holds it now.
    public var drivenBy: InstanceID?

    public init(
        deviceId: DeviceID, kind: TokenKind, env: PushEnvironment, token: String, registeredAt: UnixTime,
        drivenBy: InstanceID? = nil
    ) {
        self.deviceId = deviceId
        self.kind = kind
        self.env = env
        self.token = token
        self.registeredAt = registeredAt
        self.drivenBy = drivenBy
    }
}

/// `GET /api/push/live-activity/tokens`: every token of the account's devices, whichever instance drives them.
public struct TokenList: Hashable, Sendable, Encodable {
    /// By device id, each device's tokens in its own order.
    public var tokens: [TokenListing]
    /// As in ``LiveActivityState/devicesNotListed``: devices past the listing's bound (sharing a database).
    public var devicesNotListed: Int?
    /// As in ``LiveActivityState/devicesElsewhereError``: why the devices other instances drive are missing.
    public var devicesElsewhereError: String?

    public init(tokens: [TokenListing], devicesNotListed: Int? = nil, devicesElsewhereError: String? = nil) {
        self.tokens = tokens
        self.devicesNotListed = devicesNotListed
        self.devicesElsewhereError = devicesElsewhereError
    }
}
