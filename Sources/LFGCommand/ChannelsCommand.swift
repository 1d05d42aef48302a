import APNs
import FleetCore
import Foundation

/// `lfg channels create|list|read|delete`: one call to APNs' channel management API (reference 5.3),
/// signed like `lfg push`, sent to LFG_APNS_CHANNELS_<ENV>_URL (or --url); prints one JSON line.
struct ChannelCall: Sendable {
    static let commonUsage = """
        Signs with LFG_APNS_KEY_FILE / _KEY_ID / _TEAM_ID for LFG_APNS_BUNDLE_ID and sends to the env's channel
        management URL (LFG_APNS_CHANNELS_SANDBOX_URL / _PRODUCTION_URL, or --url). Prints {"status", "reason",
        "channel", "channels", "policy", "ms"}; exits 1 unless APNs answered success.
        """

    let environment: PushEnvironment
    let url: String?
    let caFile: String?

    init(parsing arguments: inout ArgumentList) throws(UsageError) {
        guard let envText = try arguments.value("--env") else { throw UsageError("--env is required: sandbox or production") }
        guard let environment = PushEnvironment(rawValue: envText) else {
            throw UsageError("--env must be sandbox or production, not '\(envText)'")
        }
        self.environment = environment
        url = try arguments.value("--url")
        caFile = try arguments.value("--ca-file")
    }

    static func channel(_ arguments: inout ArgumentList) throws(UsageError) -> BroadcastChannelID {
        guard let text = try arguments.value("--channel") else { throw UsageError("--channel ID is required") }
        do { return try BroadcastChannelID(text) } catch { throw UsageError("--channel: \(error)") }
    }

    /// Sends the call `make` builds for the configured bundle id, prints the answer, returns the exit status.
    func run(_ context: CommandContext, _ make: (BundleID, PushEnvironment) -> ChannelManagementRequest) async throws -> Int32 {
        let provider = try APNsProvider.start(environment: context.environment, overrideURL: url, caFile: caFile)
        defer { provider.sender.shutdown() }
        let response = await provider.sender.send(make(provider.configuration.bundleID, environment))
        context.write(Self.describe(response) + "\n")
        guard response.isSuccess else {
            context.writeError("lfg channels: \(response.summary)\n")
            return 1
        }
        return 0
    }

    /// One JSON line. The whole channel id is printed: it is this command's result, the id to publish to.
    static func describe(_ response: ChannelManagementResponse) -> String {
        var object: [String: Any] = ["status": response.status, "ms": (response.latencyMilliseconds * 10).rounded() / 10]
        object["reason"] = response.reason?.rawValue ?? response.failure?.description ?? NSNull()
        object["channel"] = response.channelID?.rawValue ?? NSNull()
        if !response.channels.isEmpty { object["channels"] = response.channels.map(\.rawValue) }
        if let policy = response.storagePolicy { object["policy"] = policy.rawValue }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// `lfg channels create`
public struct ChannelsCreateCommand: Command {
    public static let name = "channels create"
    public static let summary = "make a broadcast channel (APNs channel management) and print its id"
    public static let usage = """
        Usage: lfg channels create --env sandbox|production [--policy 0|1] [--url URL] [--ca-file F]

        --policy: 0 = no message stored, 1 = the most recent message kept 8 hours for an offline phone (default).
        """ + "\n" + ChannelCall.commonUsage

    let call: ChannelCall
    let policy: ChannelStoragePolicy

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        call = try ChannelCall(parsing: &arguments)
        let number = try arguments.integer("--policy", in: 0...1) ?? ChannelStoragePolicy.mostRecentMessage.rawValue
        policy = ChannelStoragePolicy(rawValue: number) ?? .mostRecentMessage
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        try await call.run(context) { .create(storagePolicy: policy, bundleID: $0, environment: $1) }
    }
}

/// `lfg channels list`
public struct ChannelsListCommand: Command {
    public static let name = "channels list"
    public static let summary = "list the app's broadcast channels in one environment"
    public static let usage = "Usage: lfg channels list --env sandbox|production [--url URL] [--ca-file F]\n\n" + ChannelCall.commonUsage

    let call: ChannelCall
    public init(parsing arguments: inout ArgumentList) throws(UsageError) { call = try ChannelCall(parsing: &arguments) }

    public func run(_ context: CommandContext) async throws -> Int32 {
        try await call.run(context) { .listAll(bundleID: $0, environment: $1) }
    }
}

/// `lfg channels read`
public struct ChannelsReadCommand: Command {
    public static let name = "channels read"
    public static let summary = "read a broadcast channel's storage policy"
    public static let usage = "Usage: lfg channels read --env sandbox|production --channel ID [--url URL] [--ca-file F]\n\n"
        + ChannelCall.commonUsage

    let target: OneChannelCall
    public init(parsing arguments: inout ArgumentList) throws(UsageError) { target = try OneChannelCall(parsing: &arguments) }

    public func run(_ context: CommandContext) async throws -> Int32 {
        try await target.run(context) { .read($0, bundleID: $1, environment: $2) }
    }
}

/// `lfg channels delete`
public struct ChannelsDeleteCommand: Command {
    public static let name = "channels delete"
    public static let summary = "delete a broadcast channel (its id never comes back)"
    public static let usage = "Usage: lfg channels delete --env sandbox|production --channel ID [--url URL] [--ca-file F]\n\n"
        + ChannelCall.commonUsage

    let target: OneChannelCall
    public init(parsing arguments: inout ArgumentList) throws(UsageError) { target = try OneChannelCall(parsing: &arguments) }

    public func run(_ context: CommandContext) async throws -> Int32 {
        try await target.run(context) { .delete($0, bundleID: $1, environment: $2) }
    }
}

/// The arguments of a command on one existing channel (`read`, `delete`): the common ones plus `--channel`.
struct OneChannelCall {
    let call: ChannelCall
    let channel: BroadcastChannelID

    init(parsing arguments: inout ArgumentList) throws(UsageError) {
        call = try ChannelCall(parsing: &arguments)
        channel = try ChannelCall.channel(&arguments)
    }

    func run(
        _ context: CommandContext,
        _ make: (BroadcastChannelID, BundleID, PushEnvironment) -> ChannelManagementRequest
    ) async throws -> Int32 {
        try await call.run(context) { make(channel, $0, $1) }
    }
}
