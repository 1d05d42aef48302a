import APNs
import FleetCore
import Foundation

/// A channel call the stand-in can be told to fail (``MockState/failChannelCalls(_:status:reason:count:)``).
public enum MockChannelCall: String, Hashable, Sendable, CaseIterable {
    case create, read, delete, list, broadcast
}

/// One live channel in the stand-in.
public struct MockChannel: Hashable, Sendable {
    /// The whole base64 id (never print it; see ``MockRecord/channelPrefix``).
    public let id: String
    public let policy: ChannelStoragePolicy
    public let createdAt: UnixTime
}

/// What the stand-in answers one request with.
struct MockAnswer: Hashable, Sendable {
    var status: Int
    var reason: APNsReason?
    /// Response headers beside `:status` and `content-type`.
    var headers: [String: String] = [:]
    /// A success body (read, list); an error body is made from ``reason``.
    var body: [UInt8] = []
    /// The channel the call created, named or published to.
    var channel: String?

    static func refused(_ status: Int, _ reason: APNsReason, channel: String? = nil) -> MockAnswer {
        MockAnswer(status: status, reason: reason, channel: channel)
    }
}

/// The stand-in's channel registry and the channel management and broadcast APIs over it (reference
/// sections 5.3-5.6). Pure apart from the ids it makes; the caller has checked the provider token.
struct MockChannels {
    static let defaultLimit = 10_000
    static let managementPrefix = "/1/apps/"
    static let broadcastPrefix = "/4/broadcasts/apps/"

    var limit = defaultLimit
    private(set) var live: [String: MockChannel] = [:]
    /// Creation order, for `all-channels`.
    private var order: [String] = []
    private var deleted: Set<String> = []
    private var created = 0
    private var failures: [MockChannelCall: (status: Int, reason: APNsReason, count: Int)] = [:]
    /// A per-run random start, so ids from two runs differ as APNs' random ids do.
    private let idSeed = UInt64.random(in: 0...UInt64.max)

    /// The live channels in creation order.
    var channels: [MockChannel] { order.compactMap { live[$0] } }

    mutating func fail(_ call: MockChannelCall, status: Int, reason: APNsReason, count: Int) {
        failures[call] = (status, reason, max(1, count))
    }

    /// Answers a `/1/apps/...` or `/4/broadcasts/apps/...` request; nil for any other path.
    mutating func handle(_ request: MockRequest, bundleID: BundleID?, now: UnixTime) -> MockAnswer? {
        if request.path.hasPrefix(Self.managementPrefix) { return manage(request, bundleID: bundleID, now: now) }
        if request.path.hasPrefix(Self.broadcastPrefix) { return publish(request, bundleID: bundleID, now: now) }
        return nil
    }

    // MARK: channel management (reference 5.3)

    private mutating func manage(_ request: MockRequest, bundleID: BundleID?, now: UnixTime) -> MockAnswer {
        let rest = request.path.dropFirst(Self.managementPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[0].isEmpty, rest[1] == "channels" || rest[1] == "all-channels" else {
            return .refused(404, .badPath)
        }
        if let refusal = Self.bundleRefusal(String(rest[0]), bundleID: bundleID) { return refusal }
        if let id = request.headers["apns-request-id"], (try? APNsID(id)) == nil { return .refused(400, .badMessageID) }
        let call: MockChannelCall
        switch (request.method, rest[1]) {
        case ("POST", "channels"): call = .create
        case ("GET", "channels"): call = .read
        case ("DELETE", "channels"): call = .delete
        case ("GET", "all-channels"): call = .list
        case ("POST", _), ("GET", _), ("DELETE", _): return .refused(404, .badPath)
        default: return .refused(405, .methodNotAllowed)
        }
        if let failure = takeFailure(call) { return failure }
        switch call {
        case .create: return create(body: request.body, now: now)
        case .list:
            let object = ["channels": order]
            return MockAnswer(status: 200, body: Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
        default:
            let channel: MockChannel
            switch lookUp(request.headers["apns-channel-id"]) {
            case .success(let found): channel = found
            case .failure(let refusal): return refusal.answer
            }
            if call == .delete {
                live[channel.id] = nil
                order.removeAll { $0 == channel.id }
                deleted.insert(channel.id)
                return MockAnswer(status: 204, channel: channel.id)
            }
            let object: [String: Any] = ["message-storage-policy": channel.policy.rawValue, "push-type": "LiveActivity"]
            let body = Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
            return MockAnswer(status: 200, body: body, channel: channel.id)
        }
    }

    /// A create's body must be `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`, both keys
    /// required (reference 5.3). Where Apple names no reason for a bad value, the stand-in answers
    /// `BadRequestParams` (the documented reason nearest to it).
    private mutating func create(body: [UInt8], now: UnixTime) -> MockAnswer {
        guard !body.isEmpty else { return .refused(400, .payloadEmpty) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return .refused(400, .badRequestPayload)
        }
        guard Set(object.keys).isSubset(of: ["message-storage-policy", "push-type"]) else {
            return .refused(400, .badRequestParams)
        }
        guard let pushType = object["push-type"] as? String else { return .refused(400, .missingPushType) }
        guard pushType == ChannelManagementRequest.channelPushType else { return .refused(400, .invalidPushType) }
        guard let number = object["message-storage-policy"] as? Int, let policy = ChannelStoragePolicy(rawValue: number) else {
            return .refused(400, .badRequestParams)
        }
        guard live.count < limit else { return .refused(400, .cannotCreateChannelConfig) }
        created += 1
        let id = Self.channelID(seed: idSeed, number: created)
        live[id] = MockChannel(id: id, policy: policy, createdAt: now)
        order.append(id)
        return MockAnswer(status: 201, headers: ["apns-channel-id": id], channel: id)
    }

    // MARK: broadcast (reference 5.5)

    private mutating func publish(_ request: MockRequest, bundleID: BundleID?, now: UnixTime) -> MockAnswer {
        guard request.method == "POST" else { return .refused(405, .methodNotAllowed) }
        let bundle = String(request.path.dropFirst(Self.broadcastPrefix.count))
        guard !bundle.isEmpty, !bundle.contains("/") else { return .refused(404, .badPath) }
        if bundle.contains(".push-type.") { return .refused(400, .topicDisallowed) }
        if let refusal = Self.bundleRefusal(bundle, bundleID: bundleID) { return refusal }
        let channel: MockChannel
        switch lookUp(request.headers["apns-channel-id"]) {
        case .success(let found): channel = found
        case .failure(let refusal): return refusal.answer
        }
        guard let pushType = request.headers["apns-push-type"] else { return .refused(400, .missingPushType, channel: channel.id) }
        // Section 9 item 6: the casing is uncertain, so any casing of `liveactivity` passes.
        guard pushType.lowercased() == PushType.liveActivity.rawValue else { return .refused(400, .invalidPushType, channel: channel.id) }
        guard let priority = request.headers["apns-priority"].flatMap(Int.init), PushPriority(rawValue: priority) != nil else {
            return .refused(400, .badPriority, channel: channel.id)
        }
        guard let expiration = request.headers["apns-expiration"].flatMap(Int64.init), expiration >= 0 else {
            return .refused(400, .badExpirationDate, channel: channel.id)
        }
        if channel.policy == .noStorage, expiration != 0 { return .refused(400, .badExpirationDate, channel: channel.id) }
        for name in ["apns-request-id", "apns-id"] {
            if let id = request.headers[name], (try? APNsID(id)) == nil { return .refused(400, .badMessageID, channel: channel.id) }
        }
        guard !request.body.isEmpty else { return .refused(400, .payloadEmpty, channel: channel.id) }
        guard request.body.count <= PushPayload.broadcastMaximumBytes else {
            return .refused(413, .payloadTooLarge, channel: channel.id)
        }
        if var failure = takeFailure(.broadcast) {
            failure.channel = channel.id
            return failure
        }
        return MockAnswer(status: 200, channel: channel.id)
    }

    // MARK: shared checks

    /// A refusal as an error, so a look-up can return `Result`.
    private struct Refusal: Error {
        let answer: MockAnswer
    }

    /// Reference 5.6: no header is `MissingChannelId`, bad base64 `BadChannelId`, an unknown or deleted
    /// channel `ChannelNotRegistered`.
    private func lookUp(_ header: String?) -> Result<MockChannel, Refusal> {
        guard let header else { return .failure(Refusal(answer: .refused(400, .missingChannelID))) }
        guard (try? BroadcastChannelID(header)) != nil else { return .failure(Refusal(answer: .refused(400, .badChannelID))) }
        guard let channel = live[header] else {
            return .failure(Refusal(answer: .refused(400, .channelNotRegistered, channel: header)))
        }
        return .success(channel)
    }

    /// Reference 5.6: a path bundle id the provider key does not cover is `403 TopicMismatch`.
    private static func bundleRefusal(_ bundle: String, bundleID: BundleID?) -> MockAnswer? {
        guard let bundleID, bundle != bundleID.rawValue else { return nil }
        return .refused(403, .topicMismatch)
    }

    private mutating func takeFailure(_ call: MockChannelCall) -> MockAnswer? {
        guard let failure = failures[call] else { return nil }
        failures[call] = failure.count > 1 ? (failure.status, failure.reason, failure.count - 1) : nil
        return .refused(failure.status, failure.reason)
    }

    /// A 16-byte id, base64: the run's seed and the creation number, so ids are unique and never reused.
    static func channelID(seed: UInt64, number: Int) -> String {
        var bytes: [UInt8] = []
        for value in [seed, UInt64(number)] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        return Data(bytes).base64EncodedString()
    }
}
