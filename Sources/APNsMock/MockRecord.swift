import APNs
import FleetCore
import Foundation

/// One request the stand-in received and what it answered.
public struct MockRecord: Hashable, Sendable {
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
    /// Whether the push would reach the device: false for dead-but-200 and every error.
    public let isDelivered: Bool

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
            "status": status, "apnsId": apnsID, "delivered": isDelivered, "bytes": body.count,
        ]
        for (name, value) in headers where name.hasPrefix("apns-") { object[name] = value }
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
