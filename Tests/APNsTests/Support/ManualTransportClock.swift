import APNsHTTP2
import Synchronization

/// A transport clock that moves only when a test advances it.
final class ManualTransportClock: Sendable {
    private let elapsed = Mutex<Duration>(.zero)

    var clock: TransportClock { TransportClock { [self] in elapsed.withLock { $0 } } }

    func advance(by duration: Duration) { elapsed.withLock { $0 += duration } }
}

/// Turns callback reports (transport events, stand-in records) into a stream a test awaits.
final class Reports<Report: Sendable>: Sendable {
    let stream: AsyncStream<Report>
    private let continuation: AsyncStream<Report>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Report.self) }

    var report: @Sendable (Report) -> Void { { [continuation] in continuation.yield($0) } }

    /// Waits for the first report that `matches` (the test's time limit bounds the wait).
    func next(where matches: (Report) -> Bool) async -> Report? {
        for await report in stream where matches(report) { return report }
        return nil
    }
}
