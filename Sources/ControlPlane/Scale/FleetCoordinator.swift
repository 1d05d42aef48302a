import FleetCore
import Foundation

/// One `lfg serve` among several sharing a database (contract 8.4); encoded as its name.
public struct InstanceID: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// One account's device: what a lease is held on (device ids are the phones' own, so two accounts may
/// have a device of the same id).
public struct LeasedDevice: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var account: AccountID
    public var device: DeviceID

    public init(_ account: AccountID, _ device: DeviceID) {
        self.account = account
        self.device = device
    }

    public static func < (lhs: LeasedDevice, rhs: LeasedDevice) -> Bool {
        (lhs.account.rawValue, lhs.device.rawValue) < (rhs.account.rawValue, rhs.device.rawValue)
    }

    public var description: String { account == .owner ? device.rawValue : "\(account)/\(device)" }
}

/// What one lease round left this instance holding, over every account.
public struct LeaseRound: Hashable, Sendable {
    /// Every device this instance holds now (renewed or newly claimed).
    public var held: Set<LeasedDevice>
    /// The devices claimed in this round: their records must be loaded before they are driven.
    public var gained: Set<LeasedDevice>
    /// The sum of every account's fleet revision (each bumped by every commit that changes the account's
    /// sessions, hosts or questions): a sum other than the last one seen means some account changed, and
    /// a notification may have been missed.
    public var fleetRevisionSum: Int64
    /// Accounts made plus accounts revoked: another value than the last one seen means the accounts changed.
    public var accountsStamp: Int64
    /// Accounts with device writes queued for a device this instance holds (a notification may have been missed).
    public var inboxAccounts: Set<AccountID>
    /// Instances alive now, this one included.
    public var liveInstances: Int
    /// Devices (of every account) / live instances, rounded up: an instance holding more gives the rest up
    /// when settled.
    public var fairShare: Int

    public init(
        held: Set<LeasedDevice>, gained: Set<LeasedDevice>, fleetRevisionSum: Int64 = 0, accountsStamp: Int64 = 0,
        inboxAccounts: Set<AccountID> = [], liveInstances: Int, fairShare: Int
    ) {
        self.held = held
        self.gained = gained
        self.fleetRevisionSum = fleetRevisionSum
        self.accountsStamp = accountsStamp
        self.inboxAccounts = inboxAccounts
        self.liveInstances = liveInstances
        self.fairShare = fairShare
    }
}

/// A notification from another instance (or this one) through the database.
public enum CoordinationNotice: Hashable, Sendable {
    /// An account's sessions, hosts or questions changed: read what changed.
    case fleetChanged(AccountID)
    /// A device write was queued for the device's owner.
    case inboxPosted(LeasedDevice)
    /// An account was made or revoked.
    case accountsChanged
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

/// Devices taken over, as stored: their records and the channels they retired whose deletion APNs has
/// not confirmed (an instance killed before deleting them leaves them to whoever takes the devices).
public struct TakenOverDevices: Hashable, Sendable {
    public var records: [DeviceID: DeviceRecord]
    public var retiredChannels: [DeviceChannel]

    public init(records: [DeviceID: DeviceRecord] = [:], retiredChannels: [DeviceChannel] = []) {
        self.records = records
        self.retiredChannels = retiredChannels
    }
}

/// Which of an account's stored devices to read (``FleetCoordinator/readDevices(account:_:limit:)``).
public enum DeviceSelection: Hashable, Sendable {
    /// These devices.
    case among(Set<DeviceID>)
    /// Every device but these (the ones this instance drives and lists from memory).
    case allBut(Set<DeviceID>)
}

/// An account's devices as the database holds them: what an instance lists for the devices others drive.
public struct StoredDevices: Hashable, Sendable {
    /// Each device's stored record.
    public var records: [DeviceID: DeviceRecord]
    /// The instance driving each device now (a live lease); a device no instance holds is absent.
    public var drivers: [DeviceID: InstanceID]
    /// Devices selected but past the limit, so not read.
    public var notRead: Int

    public init(records: [DeviceID: DeviceRecord] = [:], drivers: [DeviceID: InstanceID] = [:], notRead: Int = 0) {
        self.records = records
        self.drivers = drivers
        self.notRead = notRead
    }
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

/// How instances sharing one database split the devices of every account and hear about each other's writes.
///
/// Rules every implementation keeps:
/// - A device is held by at most one instance at a time: a lease with an expiry measured on the database's
///   clock. An instance that stops renewing loses its devices `ttl` seconds after its last renewal.
/// - Every account's rows stay its own: a call naming `account` reads and writes that account's rows only.
/// - ``post(_:account:)`` is durable when it returns (the write is acknowledged to the client after it), and
///   wakes the owner through ``notices()``; an owner that misses the wake-up still finds it through
///   ``LeaseRound/inboxAccounts``.
public protocol FleetCoordinator: Sendable {
    var instance: InstanceID { get }
    /// Renews this instance's leases, gives up `releasing`, and claims free or expired devices of any
    /// account up to a fair share (devices / live instances, rounded up).
    func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound
    /// Claims `device` if no instance has ever held it (its first registration); true when this one now holds it.
    func claimNew(_ device: LeasedDevice, ttl: Double) async throws(StoreError) -> Bool
    /// Gives up every lease at once (graceful shutdown): the others take the devices at their next round.
    func releaseAll() async throws(StoreError)
    /// Whether `device` is known to any instance (it has a lease row: every stored device has one), so a
    /// write for it taken here can be queued for its owner instead of answered 404.
    func isKnown(_ device: LeasedDevice) async throws(StoreError) -> Bool
    /// The stored records of `account`'s devices `ids` (missing ones are absent) and their retired channels.
    func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices
    /// `account`'s stored devices in `selection`, each with the instance driving it now, read in one
    /// snapshot: at most `limit` records (the first by device id), the rest counted in ``StoredDevices/notRead``.
    func readDevices(account: AccountID, _ selection: DeviceSelection, limit: Int) async throws(StoreError)
        -> StoredDevices
    /// `account`'s fleet revision now.
    func fleetRevision(account: AccountID) async throws(StoreError) -> Int64
    /// Every account's fleet revision (accounts never written are absent).
    func fleetRevisions() async throws(StoreError) -> [AccountID: Int64]
    /// `account`'s shared part of the store, in one snapshot with its revision: sessions, hosts, questions,
    /// paired devices' credentials and the `since` baselines (devices and their retired channels left out).
    func loadFleet(account: AccountID) async throws(StoreError) -> (contents: StoreContents, revision: Int64)
    /// What the other instances changed in `account`'s fleet after `revision`, read in one snapshot; nil
    /// when that is no longer known (the change log was pruned past it): load the whole fleet instead.
    func loadFleetChanges(account: AccountID, since revision: Int64) async throws(StoreError) -> FleetChanges?
    /// Queues `account`'s device writes for their owners (one transaction), then notifies them.
    func post(_ events: [DeviceInboxEvent], account: AccountID) async throws(StoreError)
    /// Every queued write of `account` for `devices`, oldest first.
    func takeInbox(for devices: Set<DeviceID>, account: AccountID) async throws(StoreError) -> [InboxEntry]
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
