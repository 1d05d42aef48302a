import APNsHTTP2
import AsyncTesting
import Synchronization

/// A transport clock that moves only when a test advances it.
final class ManualTransportClock: Sendable {
    private let elapsed = Mutex<Duration>(.zero)

    var clock: TransportClock { TransportClock { [self] in elapsed.withLock { $0 } } }

    func advance(by duration: Duration) { elapsed.withLock { $0 += duration } }
}

extension Inbox {
    /// A callback that feeds this inbox (transport events, stand-in records).
    var report: @Sendable (Element) -> Void { { [self] in yield($0) } }

    /// The first value that `matches`, skipping the others; each wait bounded (throws naming `awaited`).
    func first(_ awaited: String, where matches: (Element) -> Bool) async throws -> Element? {
        while let element = try await next(awaited) {
            if matches(element) { return element }
        }
        return nil
    }
}
