import FleetCore

/// What a server answered to a call.
public enum ControlPlaneReply: Hashable, Sendable {
    /// A 2xx with nothing the app needs.
    case accepted
    /// The answer of `GET /api/sessions`.
    case sessions(SessionsReply)
    /// The answer of `GET /api/devices/{deviceId}`: its mode and channel.
    case device(DeviceChannelInfo)
    /// The question as it stands, after an answer (a 200, or a 409 when it was no longer pending).
    case question(Question)
}

/// What the app reads of `GET /api/devices/{deviceId}` (contract 8.1): whether its cards follow a
/// broadcast channel, and which. The id changes when the server renews the card on a fresh channel.
public struct DeviceChannelInfo: Hashable, Sendable, Codable {
    /// The base64 id to pass to `pushType: .channel(...)`; nil in token mode.
    public var channelId: String?
    /// `"channel"` or `"token"`.
    public var mode: String
    /// Whether the server treats the device as private (contract 8.3); nil from a server that does not say.
    public var privacy: Bool?
    /// The id of the `sealKey` the server holds for the device; nil when it holds none.
    public var sealKeyId: String?

    public init(channelId: String?, mode: String, privacy: Bool? = nil, sealKeyId: String? = nil) {
        self.channelId = channelId
        self.mode = mode
        self.privacy = privacy
        self.sealKeyId = sealKeyId
    }

    /// The push type the app's own new cards get: the channel in channel mode, else a token.
    public var pushTypeForNewCards: ActivityPushType {
        guard mode == "channel", let channelId else { return .token }
        return .channel(channelId)
    }
}

/// Why a call to a control plane failed, and what to do about it.
public enum ControlPlaneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server could not be reached (no network, DNS, TLS, timeout).
    case unreachable(String)
    /// The server answered with an error status and its `error` text.
    case rejected(status: Int, message: String)
    /// The server's answer could not be read.
    case unreadableAnswer(String)
    /// The server's address is not a valid URL.
    case badServerURL(String)

    public var description: String {
        switch self {
        case .unreachable(let detail):
            "the server could not be reached (\(detail)); check the network and that `lfg serve` runs"
        case .rejected(401, _):
            "the server refused this device's credential (401): it was revoked or the server was reset; "
                + "pair again (run lfg pair and scan the code)"
        case .rejected(let status, let message):
            "the server answered \(status): \(message)"
        case .unreadableAnswer(let detail):
            "the server's answer could not be read (\(detail)); update the app or the server so they match"
        case .badServerURL(let text):
            "'\(text)' is not a server address; enter it as https://host:port"
        }
    }

    /// Whether trying again later may help (network trouble, 5xx, 429), as opposed to a problem to fix.
    public var isTransient: Bool {
        switch self {
        case .unreachable: true
        case .rejected(let status, _): status >= 500 || status == 429
        case .unreadableAnswer, .badServerURL: false
        }
    }
}

/// The app's calls to a control plane, one at a time. Implementations: ``URLSessionControlPlaneClient``
/// on the phone; tests and the simulator answer calls themselves through a ``ControlPlaneOutbox``.
public protocol ControlPlaneClient: Sendable {
    /// Performs `call` on `server` and returns its answer, or throws what went wrong.
    func perform(_ call: ControlPlaneCall, on server: ServerProfile) async throws(ControlPlaneError)
        -> ControlPlaneReply
}

/// A numbered call in flight, so its answer can be matched to it.
public typealias CallID = Int

/// Where the synchronous engine puts the calls it wants made. It never waits: the answer comes back
/// later through ``FleetAppEngine/callAnswered(_:_:)``, whenever the network (or the simulator) says.
public protocol ControlPlaneOutbox: AnyObject {
    /// Queues `call` for `server`; its answer must be reported under `id`.
    func send(_ call: ControlPlaneCall, to server: ServerProfile, id: CallID)
}

/// An outbox that only records: the test or the simulator decides when and how each call is answered.
public final class InMemoryControlPlaneOutbox: ControlPlaneOutbox {
    /// One recorded call.
    public struct Sent: Hashable, Sendable {
        public var id: CallID
        public var server: String
        public var call: ControlPlaneCall
    }

    /// Calls not yet taken, oldest first.
    public private(set) var queued: [Sent] = []
    /// Every call ever sent, oldest first.
    public private(set) var history: [Sent] = []

    public init() {}

    public func send(_ call: ControlPlaneCall, to server: ServerProfile, id: CallID) {
        let sent = Sent(id: id, server: server.name, call: call)
        queued.append(sent)
        history.append(sent)
    }

    /// Takes the calls queued so far.
    public func takeQueued() -> [Sent] {
        defer { queued = [] }
        return queued
    }
}
