import FleetCore

/// The stale-date refreshes (``PushBatch/isStaleDateRefresh``) waiting to go to APNs, handed out a slice at
/// a time: a push that carries a change goes to APNs as soon as it is decided, so it is never queued behind
/// more than one slice of routine refreshes, however large the wave (cards started together refresh
/// together: hundreds a tick for one owner with 10,000 phones).
///
/// A slice is small enough that APNs' stand-in takes it in a few milliseconds and recording its answers
/// holds the driver's lock briefly, and large enough that a wave of 500 is a dozen round trips.
public struct RefreshQueue: Sendable {
    /// The most refreshes handed out at once.
    public static let sliceSize = 40

    private var waiting: [PushBatch] = []
    private var head = 0

    var isEmpty: Bool { head == waiting.count }

    /// How many wait.
    var count: Int { waiting.count - head }

    /// Queues `refreshes` after those already waiting, in their order.
    mutating func append(_ refreshes: [PushBatch]) {
        waiting.append(contentsOf: refreshes)
    }

    /// The next slice of at most ``sliceSize`` refreshes, oldest first; nil when none waits.
    mutating func nextSlice() -> [PushBatch]? {
        guard !isEmpty else { return nil }
        let end = min(waiting.count, head + Self.sliceSize)
        let slice = Array(waiting[head..<end])
        head = end
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return slice
    }
}
