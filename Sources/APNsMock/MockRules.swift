import APNs
import FleetCore

/// A request as the stand-in sees it, before any decision.
public struct MockRequest: Hashable, Sendable {
    public var method: String
    public var path: String
    /// Lowercase names, without `authorization` (kept apart so records never hold the JWT).
    public var headers: [String: String]
    /// The `authorization` header's value.
    public var authorization: String?
    public var body: [UInt8]

    /// A request; an `authorization` entry in `headers` is moved to ``authorization``.
    public init(method: String, path: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        var headers = headers
        authorization = headers.removeValue(forKey: "authorization")
        self.headers = headers
        self.body = body
    }

    /// Adds one received header field.
    mutating func add(name: String, value: String) {
        if name == "authorization" { authorization = value } else { headers[name] = value }
    }

    /// The token part of `/3/device/<token>`, or nil for another path.
    public var token: String? {
        guard path.hasPrefix(Self.devicePrefix) else { return nil }
        return String(path.dropFirst(Self.devicePrefix.count))
    }

    static let devicePrefix = "/3/device/"
}

/// The checks APNs makes before looking at the token, in APNs' order: method, path, provider
/// token, push type, topic, priority, ids, body. Pure: the verifier and the time are passed in.
public enum MockRules {
    /// The provider-token checks every APNs endpoint makes (reference 1.8, 5.6): missing, unverifiable, over an hour old.
    public static func authorizationRejection(
        of request: MockRequest, now: UnixTime, verify: (String) -> ProviderTokenClaims?
    ) -> (status: Int, reason: APNsReason)? {
        guard let authorization = request.authorization else { return (403, .missingProviderToken) }
        guard authorization.lowercased().hasPrefix("bearer "), let claims = verify(String(authorization.dropFirst(7))) else {
            return (403, .invalidProviderToken)
        }
        if now - Double(claims.issuedAt) > ProviderTokenPolicy.maximumAge { return (403, .expiredProviderToken) }
        return nil
    }

    /// The rejection for a device push `request`, or nil when it passes every check.
    public static func rejection(
        of request: MockRequest, now: UnixTime, bundleID: BundleID?,
        verify: (String) -> ProviderTokenClaims?
    ) -> (status: Int, reason: APNsReason)? {
        guard request.method == "POST" else { return (405, .methodNotAllowed) }
        guard let token = request.token else { return (404, .badPath) }
        guard !token.isEmpty else { return (400, .missingDeviceToken) }
        guard (try? DeviceToken(hex: token)) != nil else { return (400, .badDeviceToken) }
        if let refusal = authorizationRejection(of: request, now: now, verify: verify) { return refusal }
        guard let typeText = request.headers["apns-push-type"], let pushType = PushType(rawValue: typeText) else {
            return (400, .invalidPushType)
        }
        guard let topic = request.headers["apns-topic"] else { return (400, .missingTopic) }
        if let bundleID {
            guard topic.hasPrefix(bundleID.rawValue) else { return (400, .badTopic) }
            guard topic == pushType.topic(bundleID: bundleID) else { return (400, .deviceTokenNotForTopic) }
        }
        if let priorityText = request.headers["apns-priority"] {
            guard let priority = Int(priorityText).flatMap(PushPriority.init(rawValue:)) else { return (400, .badPriority) }
            if pushType == .background, priority == .immediate { return (400, .badPriority) }
        }
        if let expiration = request.headers["apns-expiration"], Int64(expiration) == nil { return (400, .badExpirationDate) }
        if let id = request.headers["apns-id"], (try? APNsID(id)) == nil { return (400, .badMessageID) }
        if let collapse = request.headers["apns-collapse-id"], (try? CollapseID(collapse)) == nil { return (400, .badCollapseID) }
        guard !request.body.isEmpty else { return (400, .payloadEmpty) }
        guard request.body.count <= PushPayload.maximumBytes else { return (413, .payloadTooLarge) }
        return nil
    }
}
