import FleetCore
import Foundation

/// What came back for one channel management call: an HTTP answer from APNs, or a transport failure
/// (status 0, like ``PushResponse``).
public struct ChannelManagementResponse: Hashable, Sendable {
    /// The HTTP status, or 0 when no answer arrived (see ``failure``).
    public var status: Int
    /// The channel: from the `apns-channel-id` response header of a create, else the one the call named.
    public var channelID: BroadcastChannelID?
    /// A list-all's `channels` (empty for other calls).
    public var channels: [BroadcastChannelID]
    /// A read's `message-storage-policy`.
    public var storagePolicy: ChannelStoragePolicy?
    /// The `reason` of an error body.
    public var reason: APNsReason?
    /// The `apns-request-id` response header.
    public var requestID: String?
    /// Time from handing the call to the transport to its answer, in milliseconds.
    public var latencyMilliseconds: Double
    /// Set when no HTTP answer arrived.
    public var failure: TransportFailure?

    public init(
        status: Int, channelID: BroadcastChannelID? = nil, channels: [BroadcastChannelID] = [],
        storagePolicy: ChannelStoragePolicy? = nil, reason: APNsReason? = nil, requestID: String? = nil,
        latencyMilliseconds: Double = 0, failure: TransportFailure? = nil
    ) {
        self.status = status
        self.channelID = channelID
        self.channels = channels
        self.storagePolicy = storagePolicy
        self.reason = reason
        self.requestID = requestID
        self.latencyMilliseconds = latencyMilliseconds
        self.failure = failure
    }

    /// Parses APNs' answer to `request` (reference 5.3, 5.6): the `apns-channel-id` and `apns-request-id`
    /// headers, a read's `{"message-storage-policy"}`, a list's `{"channels": [...]}`, an error's `{"reason"}`.
    /// A body or header that does not parse leaves its field nil; the status still tells success.
    public init(
        answering request: ChannelManagementRequest, status: Int, headers: [HeaderField], body: [UInt8],
        latencyMilliseconds: Double = 0
    ) {
        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        let object = body.isEmpty ? nil : (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let isSuccess = (200...299).contains(status)
        self.init(
            status: status,
            channelID: header("apns-channel-id").flatMap { try? BroadcastChannelID($0) } ?? request.channel,
            channels: isSuccess ? ((object?["channels"] as? [String]) ?? []).compactMap { try? BroadcastChannelID($0) } : [],
            storagePolicy: isSuccess ? (object?["message-storage-policy"] as? Int).flatMap(ChannelStoragePolicy.init(rawValue:)) : nil,
            reason: APNsErrorBody(status: status, body: body)?.reason,
            requestID: header("apns-request-id"), latencyMilliseconds: latencyMilliseconds)
    }

    /// A call that got no HTTP answer.
    public static func transportFailed(_ failure: TransportFailure, latencyMilliseconds: Double = 0)
        -> ChannelManagementResponse
    {
        ChannelManagementResponse(status: 0, latencyMilliseconds: latencyMilliseconds, failure: failure)
    }

    /// Whether APNs answered with success (201 create, 200 read and list, 204 delete).
    public var isSuccess: Bool { failure == nil && (200...299).contains(status) }

    /// What to do about this answer; nil on success. `CannotCreateChannelConfig` is ``PushRemedy/useTokenMode``,
    /// `ChannelNotRegistered` ``PushRemedy/dropChannel`` (reference 5.6).
    public var remedy: PushRemedy? { PushRemedy(status: status, reason: reason, failure: failure) }

    /// Whether the channel limit was reached: the device falls back to token mode (contract 8.1).
    public var isChannelLimitReached: Bool { reason == .cannotCreateChannelConfig }

    /// One line for a log: status and reason or failure, never a whole channel id.
    public var summary: String {
        if let failure { return "not sent (\(failure))" }
        if let reason { return "\(status) \(reason.rawValue): \(reason.explanation)" }
        return "\(status)"
    }
}
