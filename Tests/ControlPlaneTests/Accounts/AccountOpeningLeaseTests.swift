import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Synchronization
import Testing

/// An account made on another instance is opened here while lease rounds go on: a round must never take
/// an account being opened for gone, so none of its devices' leases is given up, and once it is served
/// the next round tells it its share.
@Suite struct AccountOpeningLeaseTests {
    @Test("A lease round while an account is being opened keeps its leases, and it is told its share once served",
          .timeLimit(.minutes(1)))
    func roundsDuringAnOpenKeepTheAccountsLeases() async throws {
        let coordinator = OpeningAccountCoordinator(gated: "acme")
        let harness = try await AccountHarness(coordinator: coordinator)
        let director = try #require(harness.director)
        // Made on another instance: in the database, not read here yet; one of its phones is free.
        #expect(try await harness.store.addAccount(AccountRecord.make("acme", now: 0).record))
        coordinator.hold([LeasedDevice("acme", "phone-1")], accountsStamp: 1)

        // This instance reads the accounts (as its catch-ups do on the notification) and starts opening
        // acme's service, which waits in its first read until the test lets it go.
        let refreshing = Task { try await harness.accounts.refresh() }
        try await coordinator.openingEntered.next("acme's service to start opening")
        await director.round()  // claims phone-1 and sees the accounts' stamp move
        await director.round()  // would give up what the first one asked to release
        #expect(coordinator.released.isEmpty, "no lease of acme given up while it opens")
        #expect(harness.accounts.tenant("acme") == nil, "acme is still opening")

        coordinator.letOpen()
        try await bounded("acme's service to open") { try await refreshing.value }
        await director.round()
        let service = try harness.service("acme")
        #expect(await service.heldDevices == ["phone-1"], "told its share at the first round after it opened")
        #expect(coordinator.released.isEmpty)
    }
}

/// One instance alone on a database whose rounds hold what the test says and record what each gives up,
/// and whose first read for the `gated` account's service (its start) waits until the test lets it go.
final class OpeningAccountCoordinator: QuietCoordinator, @unchecked Sendable {
    // @unchecked: the state is behind a Mutex; the inboxes are Sendable.
    private struct State {
        var held: Set<LeasedDevice> = []
        var accountsStamp: Int64 = 0
        var lastHeld: Set<LeasedDevice> = []
        var released: Set<LeasedDevice> = []
        var isGateOpen = false
    }

    private let state = Mutex(State())
    private let gated: AccountID
    /// Yields when the gated account's service starts opening.
    let openingEntered = Inbox<Void>()
    private let gate = Inbox<Void>()

    init(gated: AccountID) { self.gated = gated }

    /// The next rounds hold `devices`, and read the accounts' stamp as `accountsStamp`.
    func hold(_ devices: Set<LeasedDevice>, accountsStamp: Int64) {
        state.withLock { state in
            state.held = devices
            state.accountsStamp = accountsStamp
        }
    }

    /// The gated account's service goes on opening.
    func letOpen() {
        state.withLock { $0.isGateOpen = true }
        gate.yield(())
    }

    /// Every device a round was asked to give up so far.
    var released: Set<LeasedDevice> { state.withLock { $0.released } }

    override func leaseRound(ttl: Double, releasing: Set<LeasedDevice>) async throws(StoreError) -> LeaseRound {
        state.withLock { state in
            state.released.formUnion(releasing)
            state.held.subtract(releasing)
            defer { state.lastHeld = state.held }
            return LeaseRound(
                held: state.held, gained: state.held.subtracting(state.lastHeld), accountsStamp: state.accountsStamp,
                liveInstances: 1, fairShare: state.held.count)
        }
    }

    override func fleetRevision(account: AccountID) async throws(StoreError) -> Int64 {
        await waitIfGated(account)
        return 0
    }

    override func loadFleet(account: AccountID) async throws(StoreError) -> (contents: StoreContents, revision: Int64) {
        await waitIfGated(account)
        return (StoreContents(), 0)
    }

    override func loadDevices(_ ids: Set<DeviceID>, account: AccountID) async throws(StoreError) -> TakenOverDevices {
        TakenOverDevices()
    }

    private func waitIfGated(_ account: AccountID) async {
        guard account == gated, !state.withLock({ $0.isGateOpen }) else { return }
        openingEntered.yield(())
        do { _ = try await gate.next("the test to let \(account)'s service open") } catch {
            Issue.record("\(error)")
        }
    }
}
