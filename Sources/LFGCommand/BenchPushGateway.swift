import ControlPlane
import FleetCore

/// `lfg bench serve`'s APNs: accepts every push at once and tells the bench when each batch left.
///
/// A measuring instrument, not a test fake: the bench times the server up to the moment a push would
/// leave for Apple, so the gateway must add nothing. It lives here, not in `ControlPlaneTesting`, so the
/// `lfg` executable never links a test target (or the Testing library those use to fail loudly).
struct BenchPushGateway: PushGateway {
    /// The instant each batch left, in order.
    let departures: AsyncStream<ContinuousClock.Instant>
    private let departed: AsyncStream<ContinuousClock.Instant>.Continuation

    init() { (departures, departed) = AsyncStream.makeStream() }

    func deliver(_ batch: PushBatch) async -> [TokenResult] {
        departed.yield(ContinuousClock.now)
        return batch.targets.map { TokenResult(target: $0, status: 200, reason: nil, apnsId: nil, milliseconds: 0) }
    }
}
