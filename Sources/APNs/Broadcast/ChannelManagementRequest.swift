import FleetCore

/// One call to APNs' channel management API (reference section 5.3), complete except for the
/// `authorization` header the sender adds. Pure: method, path, headers and body.
///
/// Every path is under `/1/apps/<bundle>` (bare bundle id). The host is the environment's channel
/// management URL (``APNsConfiguration/channelsBaseURL(for:)``), not the push host.
public struct ChannelManagementRequest: Hashable, Sendable {
    /// What the call does.
    public enum Operation: Hashable, Sendable {
        /// `POST /1/apps/<bundle>/channels`, body `{"message-storage-policy", "push-type": "LiveActivity"}`; `201`.
        case create(ChannelStoragePolicy)
        /// `GET /1/apps/<bundle>/channels` with `apns-channel-id`; `200` with the channel's configuration.
        case read(BroadcastChannelID)
        /// `DELETE /1/apps/<bundle>/channels` with `apns-channel-id`; `204`.
        case delete(BroadcastChannelID)
        /// `GET /1/apps/<bundle>/all-channels`; `200` with `{"channels": [...]}`.
        case listAll
    }

    /// The HTTP method.
    public enum Method: String, Hashable, Sendable {
        case get = "GET"
        case post = "POST"
        case delete = "DELETE"
    }

    public var operation: Operation
    public var bundleID: BundleID
    /// Channels are per environment (reference 5.1): it picks the host.
    public var environment: PushEnvironment
    /// The optional `apns-request-id` (a UUID APNs echoes back, generated if absent).
    public var requestID: APNsID?

    public init(operation: Operation, bundleID: BundleID, environment: PushEnvironment, requestID: APNsID? = nil) {
        self.operation = operation
        self.bundleID = bundleID
        self.environment = environment
        self.requestID = requestID
    }

    /// Makes a channel whose storage policy is fixed from now on.
    public static func create(
        storagePolicy: ChannelStoragePolicy, requestID: APNsID? = nil, bundleID: BundleID, environment: PushEnvironment
    ) -> ChannelManagementRequest {
        ChannelManagementRequest(
            operation: .create(storagePolicy), bundleID: bundleID, environment: environment, requestID: requestID)
    }

    /// Reads a channel's configuration (its storage policy).
    public static func read(
        _ channel: BroadcastChannelID, requestID: APNsID? = nil, bundleID: BundleID, environment: PushEnvironment
    ) -> ChannelManagementRequest {
        ChannelManagementRequest(operation: .read(channel), bundleID: bundleID, environment: environment, requestID: requestID)
    }

    /// Deletes a channel; its id never comes back.
    public static func delete(
        _ channel: BroadcastChannelID, requestID: APNsID? = nil, bundleID: BundleID, environment: PushEnvironment
    ) -> ChannelManagementRequest {
        ChannelManagementRequest(
            operation: .delete(channel), bundleID: bundleID, environment: environment, requestID: requestID)
    }

    /// Lists every channel of the app in this environment.
    public static func listAll(requestID: APNsID? = nil, bundleID: BundleID, environment: PushEnvironment)
        -> ChannelManagementRequest
    {
        ChannelManagementRequest(operation: .listAll, bundleID: bundleID, environment: environment, requestID: requestID)
    }

    /// The `push-type` value a channel is created with (reference 5.3: spelled `LiveActivity` here).
    public static let channelPushType = "LiveActivity"

    public var method: Method {
        switch operation {
        case .create: .post
        case .read, .listAll: .get
        case .delete: .delete
        }
    }

    /// The `:path` pseudo-header.
    public var path: String {
        let base = "/1/apps/" + bundleID.rawValue
        if case .listAll = operation { return base + "/all-channels" }
        return base + "/channels"
    }

    /// The channel this call names, if any.
    public var channel: BroadcastChannelID? {
        switch operation {
        case .read(let channel), .delete(let channel): channel
        case .create, .listAll: nil
        }
    }

    /// Every header beside the pseudo-headers and `authorization`, in a fixed order.
    public var headers: [HeaderField] {
        var fields: [HeaderField] = []
        if let channel { fields.append(HeaderField("apns-channel-id", channel.rawValue)) }
        if let requestID { fields.append(HeaderField("apns-request-id", requestID.rawValue)) }
        return fields
    }

    /// The JSON body: only a create has one (both keys required, reference 5.3).
    public var body: [UInt8] {
        guard case .create(let policy) = operation else { return [] }
        return Array(#"{"message-storage-policy":\#(policy.rawValue),"push-type":"\#(Self.channelPushType)"}"#.utf8)
    }

    /// The status APNs answers when the call succeeds (reference 5.3).
    public var successStatus: Int {
        switch operation {
        case .create: 201
        case .read, .listAll: 200
        case .delete: 204
        }
    }
}
