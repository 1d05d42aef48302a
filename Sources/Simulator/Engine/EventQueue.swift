/// The simulator's agenda: actions ordered by (virtual instant, sequence number).
///
/// The sequence number makes the order total: two actions at the same instant run in the order
/// they were scheduled, so a run never depends on heap internals. Single-threaded by design.
struct EventQueue<Action> {
    private struct Entry {
        let time: Double
        let sequence: UInt64
        let action: Action

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// Schedules `action` at `time` (seconds of simulated time).
    mutating func schedule(at time: Double, _ action: Action) {
        heap.append(Entry(time: time, sequence: nextSequence, action: action))
        nextSequence += 1
        siftUp(heap.count - 1)
    }

    /// The earliest action and its time, removed.
    mutating func popFirst() -> (time: Double, action: Action)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        return (first.time, first.action)
    }

    /// The time of the earliest action, if any.
    var nextTime: Double? { heap.first?.time }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
