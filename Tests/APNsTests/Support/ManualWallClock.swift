import APNs
import FleetCore
import Synchronization

/// A wall clock the test moves by hand.
final class ManualWallClock: Sendable {
    private let time: Mutex<UnixTime>
    init(_ start: UnixTime = 1_764_400_000) { time = Mutex(start) }
    func advance(by seconds: Double) { time.withLock { $0 += seconds } }
    var now: UnixTime { time.withLock { $0 } }
    var clock: WallClock { WallClock { [self] in now } }
}
