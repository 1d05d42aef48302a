import FleetCore
import Foundation

/// What came back for one push: an HTTP answer from APNs, or a transport failure.
///
/// ``outcome`` is the classification a caller acts on; ``remedy`` says why.
public struct PushResponse: Hashable, Sendable {
    /// The HTTP status, or 0 when no answer arrived (see ``failure``).
    public var status: Int
    /// The `reason` of an error body.
    public var reason: APNsReason?
    /// The `apns-id` response header.
    public var apnsID: String?
    /// For a 410: when APNs confirmed the token stopped being valid (Unix seconds).
    public var invalidSince: UnixTime?
    /// Time from handing the push to the transport to its answer, in milliseconds.
    public var latencyMilliseconds: Double
    /// Set when no HTTP answer arrived.
    public var failure: TransportFailure?
    /// How many times the push was put on the wire (retries included).
    public var attempts: Int

    public init(
        status: Int, reason: APNsReason? = nil, apnsID: String? = nil, invalidSince: UnixTime? = nil,
        latencyMilliseconds: Double = 0, failure: TransportFailure? = nil, attempts: Int = 1
    ) {
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.invalidSince = invalidSince
        self.latencyMilliseconds = latencyMilliseconds
        self.failure = failure
        self.attempts = attempts
    }

    /// Parses an APNs answer: status, `apns-id` header and the JSON body `{"reason", "timestamp"?}`.
    public init(status: Int, apnsID: String?, body: [UInt8], latencyMilliseconds: Double, attempts: Int = 1) {
        let error = APNsErrorBody(status: status, body: body)
        self.init(
            status: status, reason: error?.reason, apnsID: apnsID, invalidSince: error?.invalidSince,
            latencyMilliseconds: latencyMilliseconds, attempts: attempts)
    }

    /// A push that got no HTTP answer: ``PushOutcome/retryLater``, or a configuration error when signing failed.
    public static func transportFailed(_ failure: TransportFailure, latencyMilliseconds: Double = 0, attempts: Int = 1)
        -> PushResponse
    {
        PushResponse(status: 0, latencyMilliseconds: latencyMilliseconds, failure: failure, attempts: attempts)
    }

    /// What to do about this answer; nil when it was accepted.
    public var remedy: PushRemedy? { PushRemedy(status: status, reason: reason, failure: failure) }

    /// The classification a caller switches on.
    public var outcome: PushOutcome { remedy?.outcome ?? .accepted }
}

/// The JSON body of an APNs error answer: `{"reason": String, "timestamp"?: ms}` (reference 1.7, 5.6).
/// The one parser of it, for pushes, broadcasts and channel calls.
public struct APNsErrorBody: Hashable, Sendable {
    public var reason: APNsReason?
    /// For a 410: when APNs confirmed the token stopped being valid (Unix seconds).
    public var invalidSince: UnixTime?

    /// Nil for a 2xx answer or a body that is not a JSON object.
    public init?(status: Int, body: [UInt8]) {
        guard !(200...299).contains(status), !body.isEmpty,
            let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        else { return nil }
        reason = (object["reason"] as? String).map(APNsReason.init(rawValue:))
        invalidSince = (object["timestamp"] as? NSNumber).map { $0.doubleValue / 1000 }
    }
}

extension PushRemedy {
    /// The one classification of an APNs answer, for pushes and channel calls alike: nil for a 2xx;
    /// the documented reason's remedy; else by status (reference 1.8, 1.9, 5.6).
    public init?(status: Int, reason: APNsReason?, failure: TransportFailure?) {
        if let failure {
            self = failure.kind == .signingFailed ? .fixConfiguration : .reconnect
            return
        }
        if (200...299).contains(status) { return nil }
        if let reason, reason.isKnown {
            self = reason.remedy
            return
        }
        switch status {
        case 410: self = .dropToken
        case 429, 500...599: self = .backOff
        default: self = .fixRequest
        }
    }
}

extension APNsReason {
    /// Whether APNs documents this reason.
    public var isKnown: Bool {
        if case .unknown = self { return false }
        return true
    }
}

/// Why a push got no HTTP answer. Retryable (nothing reached a verdict on the token), except a
/// signing failure, which is a configuration error.
public struct TransportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// No connection could be made (refused, DNS, TLS handshake).
        case connectFailed
        /// The connection closed or reset while the push was in flight.
        case connectionLost
        /// The server sent GOAWAY before processing this stream.
        case goAway
        /// No answer in time.
        case timedOut
        /// An HTTP/2 framing or stream error.
        case protocolError
        /// The transport was shut down.
        case cancelled
        /// The provider token could not be signed: a configuration problem, not a network one.
        case signingFailed
    }

    public let kind: Kind
    /// The library's message (never containing the token or the JWT).
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
