import FleetCore

/// Where the control plane keeps what must survive a restart: sessions, hosts, devices (tokens and
/// cards included), the sticky `since` baselines and the card history.
///
/// Rules every implementation keeps:
/// - ``commit(_:)`` applies all its writes in one transaction, and returns only once they are durable
///   (a process killed right after it returns loses nothing); on a throw, none of them took effect.
/// - Calls are serialized: a ``load()`` after a ``commit(_:)`` returned sees its writes.
public protocol Store: Sendable {
    /// Everything stored, for start-up.
    func load() async throws(StoreError) -> StoreContents
    /// Applies `writes`, in order, as one transaction.
    func commit(_ writes: [StoreWrite]) async throws(StoreError)
    /// The card history, newest first, at most `limit` entries, optionally for one device.
    func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord]
}

/// One write to the store.
public enum StoreWrite: Hashable, Sendable {
    case putSession(SessionID, SessionReport)
    case deleteSession(SessionID)
    case putHost(HostID, HostHeartbeat)
    case putDevice(DeviceID, DeviceRecord)
    case putSince(SinceMap)
    case deleteSince([SessionID])
    case recordHistory(CardHistoryEvent)
    /// Replaces the list of channels awaiting deletion.
    case putRetiredChannels([DeviceChannel])
    /// Replaces the channels awaiting deletion of these devices only (several instances on one database,
    /// each keeping the list of the devices it drives); `channels` all belong to `devices`.
    case putRetiredChannelsOf(devices: Set<DeviceID>, channels: [DeviceChannel])
    /// Removes a device's record and its tokens.
    case deleteDevice(DeviceID)
    /// Insert or replace a question (contract 8.2).
    case putQuestion(Question)
    /// Remove resolved questions past the kept number.
    case deleteQuestions([QuestionID])
    /// Insert or replace a paired device's credential, by id (a revocation puts it with `revokedAt` set).
    case putDeviceCredential(DeviceCredentialRecord)
    /// Several instances on one database: takes `seq` as the session's last `LFG-Report-Seq`, or refuses
    /// the whole commit with a ``StoreConflict`` when it is stale (``ReportSequence``), so the order holds
    /// whichever instance each report reaches. Only stores that can be shared keep these (PostgreSQL, and
    /// the in-memory store for tests); the others refuse the commit.
    case takeReportSeq(SessionID, Int)
}

/// Everything a store holds, as loaded at start.
public struct StoreContents: Hashable, Sendable {
    public var sessions: [SessionID: SessionReport]
    public var hosts: [HostID: HostHeartbeat]
    public var devices: [DeviceID: DeviceRecord]
    public var since: SinceMap
    /// Every stored question, any state.
    public var questions: [QuestionID: Question]
    /// Channels no device needs any more whose deletion APNs has not confirmed.
    public var retiredChannels: [DeviceChannel]
    /// Every paired device's credential, revoked ones included.
    public var deviceCredentials: [DeviceCredentialID: DeviceCredentialRecord]

    public init(
        sessions: [SessionID: SessionReport] = [:], hosts: [HostID: HostHeartbeat] = [:],
        devices: [DeviceID: DeviceRecord] = [:], since: SinceMap = [:], questions: [QuestionID: Question] = [:],
        retiredChannels: [DeviceChannel] = [], deviceCredentials: [DeviceCredentialID: DeviceCredentialRecord] = [:]
    ) {
        self.deviceCredentials = deviceCredentials
        self.sessions = sessions
        self.hosts = hosts
        self.devices = devices
        self.since = since
        self.questions = questions
        self.retiredChannels = retiredChannels
    }
}

/// One card's life: when it started and how, when the phone proved it, when it ended and why.
/// Kept after the card ends, so the evidence survives exactly when it is wanted.
public struct CardHistoryRecord: Hashable, Sendable, Codable {
    public var deviceId: DeviceID
    public var startedAt: UnixTime
    public var origin: CardOrigin
    /// When an update token arrived for a card the server had push-started.
    public var adoptedAt: UnixTime?
    public var endedAt: UnixTime?
    public var endReason: CardEndReason?

    public init(
        deviceId: DeviceID, startedAt: UnixTime, origin: CardOrigin, adoptedAt: UnixTime? = nil,
        endedAt: UnixTime? = nil, endReason: CardEndReason? = nil
    ) {
        self.deviceId = deviceId
        self.startedAt = startedAt
        self.origin = origin
        self.adoptedAt = adoptedAt
        self.endedAt = endedAt
        self.endReason = endReason
    }
}

/// A store failure: the operation, the library's code when there is one, and what to do.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public var operation: String
    public var code: Int32?
    public var message: String
    /// Set when a shared store refused the commit because another writer was first.
    public var conflict: StoreConflict?

    public init(operation: String, code: Int32? = nil, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String {
        let codeText = code.map { " (code \($0))" } ?? ""
        return "store \(operation) failed\(codeText): \(message)"
    }
}
