import APNs
import FleetCore
import Foundation

/// One request the stand-in received and what it answered.
public struct MockRecord: Hashable, Sendable {
    /// Which API the request went to.
    public enum Kind: String, Hashable, Sendable {
        /// `/3/device/<token>` (and anything that is not one of the others).
        case device
        /// `/4/broadcasts/apps/<bundle>`.
        case broadcast
        /// `/1/apps/<bundle>/...`: channel management.
        case channelManagement = "channel"

        init(path: String) {
            if path.hasPrefix(MockChannels.broadcastPrefix) {
                self = .broadcast
            } else if path.hasPrefix(MockChannels.managementPrefix) {
                self = .channelManagement
            } else {
                self = .device
            }
        }
    }

    /// 1, 2, 3, ... in arrival order.
    public let sequence: Int
    /// Which accepted connection carried it (1-based).
    public let connection: Int
    /// When it arrived (the stand-in's wall clock).
    public let receivedAt: UnixTime
    public let method: String
    public let path: String
    /// The token from the path (whole; never print it, use ``tokenPrefix``).
    public let token: String
    /// Every request header but `authorization`, lowercase names.
    public let headers: [String: String]
    public let body: [UInt8]
    /// The verified provider-token claims, or nil when missing or invalid.
    public let providerToken: ProviderTokenClaims?
    public let status: Int
    public let reason: APNsReason?
    /// The `apns-id` answered.
    public let apnsID: String
    /// Whether the push would reach the device (for a broadcast: every subscriber of the channel): false for
    /// dead-but-200 and every error.
    public let isDelivered: Bool
    public let kind: Kind
    /// The whole channel id a channel call or broadcast named or created (never print it; see ``channelPrefix``).
    public let channel: String?
    /// The answer's headers beside `:status` (e.g. `apns-id`, `apns-channel-id`, `apns-request-id`).
    public let responseHeaders: [String: String]
    /// The answer's body (an error's `{"reason"}`, a read's configuration, a list's channels).
    public let responseBody: [UInt8]

    public init(
        sequence: Int, connection: Int, receivedAt: UnixTime, method: String, path: String, token: String,
        headers: [String: String], body: [UInt8], providerToken: ProviderTokenClaims?, status: Int, reason: APNsReason?,
        apnsID: String, isDelivered: Bool, kind: Kind = .device, channel: String? = nil,
        responseHeaders: [String: String] = [:], responseBody: [UInt8] = []
    ) {
        self.sequence = sequence
        self.connection = connection
        self.receivedAt = receivedAt
        self.method = method
        self.path = path
        self.token = token
        self.headers = headers
        self.body = body
        self.providerToken = providerToken
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.isDelivered = isDelivered
        self.kind = kind
        self.channel = channel
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
    }

    /// The first 8 characters of the channel id: all a printout may show.
    public var channelPrefix: String? { channel.map { String($0.prefix(8)) } }

    /// The first 8 hex characters of the token: all a printout may show.
    public var tokenPrefix: String { String(token.prefix(8)) }

    public var pushType: String? { headers["apns-push-type"] }
    public var topic: String? { headers["apns-topic"] }

    /// The body parsed as JSON (for checks in tests); nil when it is not JSON.
    public var bodyJSON: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }

    /// One JSON object for printing: no whole token, no JWT, the body's size rather than its content.
    public var printable: [String: any Sendable] {
        var object: [String: any Sendable] = [
            "seq": sequence, "connection": connection, "ts": receivedAt, "method": method, "token": tokenPrefix,
            "status": status, "apnsId": apnsID, "delivered": isDelivered, "bytes": body.count, "kind": kind.rawValue,
            "path": kind == .device ? "/3/device/" + tokenPrefix : path,
        ]
        for (name, value) in headers where name.hasPrefix("apns-") && name != "apns-channel-id" { object[name] = value }
        if let channelPrefix { object["channel"] = channelPrefix }
        if let reason { object["reason"] = reason.rawValue }
        if let providerToken { object["kid"] = providerToken.keyID; object["iss"] = providerToken.teamID }
        return object
    }

    /// ``printable`` as one line of JSON with sorted keys.
    public var jsonLine: String {
        let data = (try? JSONSerialization.data(withJSONObject: printable, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
