import FleetCore
import Foundation

/// One `lfg serve` among several sharing a database (contract 8.4).
public struct InstanceID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// What one lease round left this instance holding.
public struct LeaseRound: Hashable, Sendable {
    /// Every device this instance holds now (renewed or newly claimed).
    public var held: Set<DeviceID>
    /// The devices claimed in this round: their records must be loaded before they are driven.
    public var gained: Set<DeviceID>
    /// The shared fleet's revision (bumped by every commit that changes sessions, hosts or questions):
    /// a value other than the last one loaded means a notification was missed.
    public var fleetRevision: Int64
    /// Instances alive now, this one included.
    public var liveInstances: Int
    /// Devices / live instances, rounded up: an instance holding more gives the rest up when settled.
    public var fairShare: Int

    public init(held: Set<DeviceID>, gained: Set<DeviceID>, fleetRevision: Int64, liveInstances: Int, fairShare: Int) {
        self.held = held
        self.gained = gained
        self.fleetRevision = fleetRevision
        self.liveInstances = liveInstances
        self.fairShare = fairShare
    }
}

/// A notification from another instance (or this one) through the database.
public enum CoordinationNotice: Hashable, Sendable {
    /// Sessions, hosts or questions changed: reload the shared fleet.
    case fleetChanged
    /// A device write was queued for the device's owner.
    case inboxPosted(DeviceID)
    /// The notification channel was re-opened: anything sent meanwhile is lost, so catch up by reading.
    case resumed
}

/// The sessions, hosts and questions other instances changed after a fleet revision, each as it is now.
public struct FleetChanges: Hashable, Sendable {
    /// The fleet's revision these changes bring a reader up to.
    public var revision: Int64
    /// Each changed session's report now; nil: deleted.
    public var sessions: [SessionID: SessionReport?]
    /// Each changed host's heartbeat now; nil: gone.
    public var hosts: [HostID: HostHeartbeat?]
    /// Each changed question now (asked, answered, expired, cancelled); nil: forgotten.
    public var questions: [QuestionID: Question?]

    public init(
        revision: Int64, sessions: [SessionID: SessionReport?] = [:], hosts: [HostID: HostHeartbeat?] = [:],
        questions: [QuestionID: Question?] = [:]
    ) {
        self.revision = revision
        self.sessions = sessions
        self.hosts = hosts
        self.questions = questions
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { sessions.isEmpty && hosts.isEmpty && questions.isEmpty }
}

/// A device write queued by an instance that does not drive the device, for the one that does.
public struct InboxEntry: Hashable, Sendable {
    public var id: Int64
    public var event: DeviceInboxEvent

    public init(id: Int64, event: DeviceInboxEvent) {
        self.id = id
        self.event = event
    }
}

/// How instances sharing one database split the devices and hear about each other's writes.
///
/// Rules every implementation keeps:
/// - A device is held by at most one instance at a time: a lease with an expiry measured on the database's
///   clock. An instance that stops renewing loses its devices `ttl` seconds after its last renewal.
/// - ``post(_:)`` is durable when it returns (the write is acknowledged to the client after it), and
///   wakes the owner through ``notices()``; an owner that misses the wake-up still finds the entry at
///   its next ``leaseRound(ttl:releasing:)``-driven ``takeInbox(for:)``.
public protocol FleetCoordinator: Sendable {
    var instance: InstanceID { get }
    /// Renews this instance's leases, gives up `releasing`, and claims free or expired devices up to a
    /// fair share (devices / live instances, rounded up).
    func leaseRound(ttl: Double, releasing: Set<DeviceID>) async throws(StoreError) -> LeaseRound
    /// Claims `deviceId` if no instance has ever held it (its first registration); true when this one now holds it.
    func claimNew(_ deviceId: DeviceID, ttl: Double) async throws(StoreError) -> Bool
    /// Gives up every lease at once (graceful shutdown): the others take the devices at their next round.
    func releaseAll() async throws(StoreError)
    /// The stored records of `ids` (missing ones are absent).
    func loadDevices(_ ids: Set<DeviceID>) async throws(StoreError) -> [DeviceID: DeviceRecord]
    /// The shared part of the store: sessions, hosts and questions (devices left out), and its revision.
    func loadFleet() async throws(StoreError) -> (contents: StoreContents, revision: Int64)
    /// What the other instances changed in the shared fleet after `revision`, read in one snapshot; nil
    /// when that is no longer known (the change log was pruned past it): load the whole fleet instead.
    func loadFleetChanges(since revision: Int64) async throws(StoreError) -> FleetChanges?
    /// Queues device writes for their owners (one transaction), then notifies them.
    func post(_ events: [DeviceInboxEvent]) async throws(StoreError)
    /// Every queued write for `devices`, oldest first.
    func takeInbox(for devices: Set<DeviceID>) async throws(StoreError) -> [InboxEntry]
    /// Deletes applied entries.
    func deleteInbox(_ ids: [Int64]) async throws(StoreError)
    /// The notifications for this instance; one consumer, finished when the coordinator shuts down.
    func notices() -> AsyncStream<CoordinationNotice>
}

extension InstanceID {
    /// A name no other instance has: host, process id and a random suffix (an instance restarted with the
    /// same pid must not inherit the dead one's leases; they expire instead).
    public static func unique() -> InstanceID {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return InstanceID("\(host)-\(ProcessInfo.processInfo.processIdentifier)-\(suffix)")
    }
}
