import AsyncTesting
import ControlPlane
import FleetCore
import Foundation

/// A store whose commits block their thread until the test releases them, as a database round trip
/// blocks libpq's caller: for showing that a blocked store stalls nothing but its own callers (the HTTP
/// event loop, reads served from memory). It runs on a ``BlockingCallExecutor``, as every blocking store
/// must; everything else is an ``InMemoryStore``'s.
///
/// A commit never released within `maximumHold` throws (a test that forgot to release fails, it does not hang).
public actor HeldCommitStore: Store {
    private let executor = BlockingCallExecutor(name: "lfg-test-held-store")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let base = InMemoryStore()
    private let gate = Gate()
    private let maximumHold: TimeInterval
    /// Yields once per commit, when it starts blocking its thread.
    public nonisolated let heldCommits = Inbox<Void>()

    public init(maximumHold: Duration = defaultTimeLimit) {
        self.maximumHold = TimeInterval(maximumHold.components.seconds)
    }

    /// Lets every held commit (and every later one) through.
    public nonisolated func release() { gate.open() }

    public func load() async throws(StoreError) -> StoreContents { try await base.load() }

    public func commit(_ writes: [StoreWrite]) async throws(StoreError) {
        heldCommits.yield(())
        guard gate.wait(upTo: maximumHold) else {
            throw StoreError(operation: "commit", message: "the test never released this held commit (HeldCommitStore.release())")
        }
        try await base.commit(writes)
    }

    public func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        try await base.history(deviceId: deviceId, limit: limit)
    }

    /// A one-way gate a thread blocks on. Invariant behind `@unchecked Sendable`: `isOpen` is read and
    /// written only with `condition` locked.
    private final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }

        /// Blocks the calling thread until opened (true) or until `seconds` passed (false).
        func wait(upTo seconds: TimeInterval) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while !isOpen { guard condition.wait(until: deadline) else { return isOpen } }
            return true
        }
    }
}
