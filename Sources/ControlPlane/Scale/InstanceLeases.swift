import FleetCore
import Synchronization

/// What every account's service on one instance shares about its leases: until when they are surely
/// valid, which devices its services asked to give up, and the lease metrics. Written by the
/// ``LeaseDirector`` (one per instance), read by every service on each tick, so an account whose share
/// did not change is never called.
///
/// A class behind a lock: a tick reads it without awaiting anything.
public final class InstanceLeases: Sendable {
    /// The lease metrics for `GET /metrics`: devices held now, and lease moves so far.
    public struct Counts: Hashable, Sendable {
        public var held: Int
        public var gained: Int
        public var lost: Int
        public var shed: Int

        public init(held: Int = 0, gained: Int = 0, lost: Int = 0, shed: Int = 0) {
            self.held = held
            self.gained = gained
            self.lost = lost
            self.shed = shed
        }
    }

    private struct State {
        var validUntil: UnixTime = -.infinity
        var round = 0
        var releaseRequests: Set<LeasedDevice> = []
        var counts = Counts()
    }

    private let state = Mutex(State())

    public init() {}

    /// Until when (this instance's wall clock) the leases are surely valid: the last round's start plus
    /// the lease time, less a margin. Past it, nothing is pushed: another instance may own the devices.
    public var validUntil: UnixTime { state.withLock { $0.validUntil } }

    /// The number of the lease round running or last run (a claim made during round N is not in round N-1's).
    public var round: Int { state.withLock { $0.round } }

    /// Devices a service cannot drive (their load failed): given up at the next round.
    public func requestRelease(_ devices: some Sequence<LeasedDevice>) {
        state.withLock { $0.releaseRequests.formUnion(devices) }
    }

    /// The lease metrics for `GET /metrics`: devices held now, and lease moves so far.
    public var counts: Counts { state.withLock { $0.counts } }

    func startRound() -> (round: Int, releaseRequests: Set<LeasedDevice>) {
        state.withLock { state in
            state.round += 1
            defer { state.releaseRequests = [] }
            return (state.round, state.releaseRequests)
        }
    }

    func finishRound(validUntil: UnixTime, held: Int, gained: Int, lost: Int, shed: Int) {
        state.withLock { state in
            state.validUntil = validUntil
            state.counts.held = held
            state.counts.gained += gained
            state.counts.lost += lost
            state.counts.shed += shed
        }
    }

    func noteClaimed() { state.withLock { $0.counts.gained += 1 } }

    /// Pushing stops at once (the leases are being given up).
    func invalidate() { state.withLock { $0.validUntil = -.infinity } }
}

/// One account's part of its instance's coordination: what that account's service is given.
public struct AccountCoordinator: Sendable {
    public let account: AccountID
    public let shared: any FleetCoordinator
    public let leases: InstanceLeases

    public init(account: AccountID, shared: any FleetCoordinator, leases: InstanceLeases) {
        self.account = account
        self.shared = shared
        self.leases = leases
    }
}
