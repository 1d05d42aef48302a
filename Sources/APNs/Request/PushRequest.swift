import FleetCore

/// Where a push goes: one device token (`POST /3/device/<token>`, reference 1.2) or a broadcast
/// channel (`POST /4/broadcasts/apps/<bundle>` with `apns-channel-id`, reference 5.5).
public enum PushDestination: Hashable, Sendable, CustomStringConvertible {
    case device(DeviceToken)
    case channel(BroadcastChannelID)

    /// The largest body APNs takes for this destination (reference 1.6): 4096 bytes for a device push,
    /// 5120 for a broadcast. The one size rule; checked when a ``PushRequest`` is made.
    public var maximumPayloadBytes: Int {
        switch self {
        case .device: PushPayload.maximumBytes
        case .channel: PushPayload.broadcastMaximumBytes
        }
    }

    /// The shortened token or channel id (never the whole of either).
    public var description: String {
        switch self {
        case .device(let token): "token \(token)"
        case .channel(let channel): "channel \(channel)"
        }
    }
}

/// One push, complete except for the `authorization` header the sender adds.
///
/// A request that exists is sendable as far as this side can tell: its token or channel is well formed,
/// its payload is non-empty and within its destination's ``PushDestination/maximumPayloadBytes``, a
/// background push has priority 5, and a broadcast carries no topic suffix.
public struct PushRequest: Hashable, Sendable {
    /// Where the push goes.
    public var destination: PushDestination
    /// Which APNs environment the token or channel belongs to; it picks the base URL.
    public var environment: PushEnvironment
    public var pushType: PushType
    /// For a device push, the full `apns-topic`, suffix included (see ``PushType/topic(bundleID:)``).
    /// For a broadcast, the bare bundle id: it goes in the path and no `apns-topic` is sent (reference 5.5).
    public var topic: String
    public var priority: PushPriority
    public var expiration: PushExpiration?
    public var collapseID: CollapseID?
    public var apnsID: APNsID?
    /// The JSON body.
    public var payload: PushPayload

    /// Builds a request; throws when the combination is one APNs is known to refuse.
    public init(
        destination: PushDestination,
        environment: PushEnvironment,
        pushType: PushType,
        topic: String,
        priority: PushPriority,
        expiration: PushExpiration? = nil,
        collapseID: CollapseID? = nil,
        apnsID: APNsID? = nil,
        payload: PushPayload
    ) throws(PushRequestError) {
        guard !topic.isEmpty else { throw .missingTopic }
        if pushType == .background, priority == .immediate { throw .backgroundNeedsPriority5 }
        if case .channel = destination {
            // Reference 5.5: the path takes the bare bundle id; a push-type suffix is `400 TopicDisallowed`.
            guard !topic.contains(".push-type.") else { throw .broadcastTopicHasSuffix(topic) }
            // Reference 5.5: `apns-expiration` is required on a broadcast.
            guard expiration != nil else { throw .broadcastNeedsExpiration }
        }
        let limit = destination.maximumPayloadBytes
        guard payload.bytes.count <= limit else { throw .payloadTooLarge(bytes: payload.bytes.count, limit: limit) }
        self.destination = destination
        self.environment = environment
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.payload = payload
    }

    /// A device push to `token` (see ``init(destination:environment:pushType:topic:priority:expiration:collapseID:apnsID:payload:)``).
    public init(
        token: DeviceToken,
        environment: PushEnvironment,
        pushType: PushType,
        topic: String,
        priority: PushPriority,
        expiration: PushExpiration? = nil,
        collapseID: CollapseID? = nil,
        apnsID: APNsID? = nil,
        payload: PushPayload
    ) throws(PushRequestError) {
        try self.init(
            destination: .device(token), environment: environment, pushType: pushType, topic: topic, priority: priority,
            expiration: expiration, collapseID: collapseID, apnsID: apnsID, payload: payload)
    }

    /// The device token, or nil for a broadcast.
    public var token: DeviceToken? {
        if case .device(let token) = destination { return token }
        return nil
    }

    /// The broadcast channel, or nil for a device push.
    public var channel: BroadcastChannelID? {
        if case .channel(let channel) = destination { return channel }
        return nil
    }

    /// The `:path` pseudo-header: `/3/device/<token>` (reference 1.2) or `/4/broadcasts/apps/<bundle>` (5.5).
    public var path: String {
        switch destination {
        case .device(let token): "/3/device/" + token.hex
        case .channel: "/4/broadcasts/apps/" + topic
        }
    }

    /// Every APNs header this request carries, in a fixed order (no `authorization`).
    public var headers: [HeaderField] {
        var fields: [HeaderField] = []
        forEachHeader { fields.append(HeaderField($0, $1)) }
        return fields
    }

    /// Calls `body` with each header's name and value, in ``headers``' order, without building an array
    /// (the transport's hot path).
    public func forEachHeader(_ body: (String, String) -> Void) {
        body("apns-push-type", pushType.rawValue)
        switch destination {
        case .device: body("apns-topic", topic)
        case .channel(let channel): body("apns-channel-id", channel.rawValue)
        }
        body("apns-priority", String(priority.rawValue))
        if let expiration { body("apns-expiration", expiration.headerValue) }
        if let collapseID { body("apns-collapse-id", collapseID.rawValue) }
        if let apnsID { body("apns-id", apnsID.rawValue) }
    }
}

/// One HTTP header: lowercase name and value.
public struct HeaderField: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
    public var description: String { "\(name): \(value)" }
}

/// Why a push could not be built; each message says what to change.
public enum PushRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    case payloadTooLarge(bytes: Int, limit: Int)
    case payloadEmpty
    case payloadNotEncodable(String)
    case missingTopic
    case backgroundNeedsPriority5
    case badCollapseID(bytes: Int)
    case badAPNsID(String)
    case badToken(DeviceTokenError)
    case badChannelID(prefix: String)
    case broadcastTopicHasSuffix(String)
    case broadcastNeedsExpiration
    case broadcastCannotStart

    public var description: String {
        switch self {
        case .payloadTooLarge(let bytes, let limit):
            "the payload is \(bytes) bytes, over APNs' limit of \(limit); shorten it (fewer rows, shorter titles)"
        case .payloadEmpty: "the payload is empty; APNs refuses an empty body"
        case .payloadNotEncodable(let why): "the payload could not be encoded as JSON: \(why)"
        case .missingTopic: "the push has no apns-topic; set LFG_APNS_BUNDLE_ID"
        case .backgroundNeedsPriority5: "a background push must use priority 5; APNs refuses priority 10"
        case .badCollapseID(let bytes):
            "the collapse id is \(bytes) bytes; give 1 to \(CollapseID.maximumBytes) bytes"
        case .badAPNsID(let text): "the apns-id '\(text)' is not a UUID (8-4-4-4-12 hex)"
        case .badToken(let error): error.description
        case .badChannelID(let prefix):
            "the channel id '\(prefix)' is not base64; pass the apns-channel-id APNs returned when it made the channel"
        case .broadcastTopicHasSuffix(let topic):
            "a broadcast takes the bare bundle id, not '\(topic)'; APNs answers TopicDisallowed to a push-type suffix"
        case .broadcastNeedsExpiration:
            "a broadcast needs apns-expiration: 0 on a no-storage channel, a time within 8 hours on a most-recent one"
        case .broadcastCannotStart:
            "a broadcast cannot start a Live Activity; start it with a push-to-start carrying input-push-channel"
        }
    }
}
