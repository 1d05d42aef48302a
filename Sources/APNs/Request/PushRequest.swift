import FleetCore

/// One push, complete except for the `authorization` header the sender adds.
///
/// A request that exists is sendable as far as this side can tell: its token is hex, its payload
/// is non-empty and within ``PushPayload/maximumBytes``, and a background push has priority 5.
public struct PushRequest: Hashable, Sendable {
    /// Where the push goes (the `:path` is `/3/device/<token>`).
    public var token: DeviceToken
    /// Which APNs environment the token belongs to; it picks the base URL.
    public var environment: PushEnvironment
    public var pushType: PushType
    /// The full `apns-topic`, suffix included (see ``PushType/topic(bundleID:)``).
    public var topic: String
    public var priority: PushPriority
    public var expiration: PushExpiration?
    public var collapseID: CollapseID?
    public var apnsID: APNsID?
    /// The JSON body.
    public var payload: PushPayload

    /// Builds a request; throws when the combination is one APNs is known to refuse.
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
        guard !topic.isEmpty else { throw .missingTopic }
        if pushType == .background, priority == .immediate { throw .backgroundNeedsPriority5 }
        self.token = token
        self.environment = environment
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.payload = payload
    }

    /// The `:path` pseudo-header.
    public var path: String { "/3/device/" + token.hex }

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
        body("apns-topic", topic)
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
        }
    }
}
