import FleetCore
import Synchronization

/// A store that times every commit for `GET /metrics`, passing everything through unchanged.
struct TimedStore: Store {
    let base: any Store
    let clock: any Clock<Duration>
    let commits: CommitTimes

    /// The commit times so far (shared by the copies of the store).
    final class CommitTimes: Sendable {
        private let summary = Mutex(ServiceMetrics.DurationSummary())
        var current: ServiceMetrics.DurationSummary { summary.withLock { $0 } }
        func record(_ duration: Duration) { summary.withLock { $0.record(duration) } }
    }

    func load() async throws(StoreError) -> StoreContents { try await base.load() }

    func commit(_ writes: [StoreWrite]) async throws(StoreError) {
        try await timed(on: clock, record: commits.record) { () async throws(StoreError) in try await base.commit(writes) }
    }

    func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        try await base.history(deviceId: deviceId, limit: limit)
    }
}

/// Runs `work` and hands its duration on `clock` to `record` (also when it throws).
func timed<C: Clock<Duration>>(
    on clock: C, record: (Duration) -> Void, _ work: () async throws(StoreError) -> Void
) async throws(StoreError) {
    let started = clock.now
    defer { record(started.duration(to: clock.now)) }
    try await work()
}
