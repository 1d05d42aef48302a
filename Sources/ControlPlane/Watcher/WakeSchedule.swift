import FleetCore

/// When each key (a device, a session) must be looked at again, earliest first: the watcher's timers.
///
/// A binary min-heap with lazy deletion: rescheduling a key leaves its old entry in the heap, and an entry
/// whose time is no longer the key's is skipped when it comes out. The heap is rebuilt when stale entries
/// outnumber live ones, so it stays within twice the live keys.
struct WakeSchedule<Key: Hashable & Sendable>: Sendable {
    private struct Entry: Sendable {
        var time: UnixTime
        var key: Key
    }

    private var times: [Key: UnixTime] = [:]
    private var heap: [Entry] = []

    /// When `key` is due next; nil: never.
    func time(of key: Key) -> UnixTime? { times[key] }

    /// The earliest time any key may be due: never later than the true earliest (an entry a reschedule left
    /// behind may come first, and only costs a look that finds nothing due); nil when the heap is empty.
    var earliest: UnixTime? { heap.first?.time }

    /// Makes `key` due at `time` (nil: never), replacing what it had.
    mutating func schedule(_ key: Key, at time: UnixTime?) {
        guard times[key] != time else { return }
        times[key] = time
        guard let time else { return }
        push(Entry(time: time, key: key))
        if heap.count > 2 * times.count + 64 { rebuild() }
    }

    /// Takes the keys due at `now` out of the schedule, earliest first: at most `limit` of them besides those
    /// in `alreadyDue` (taken too, not counted), except that every key due at or before `overdue` is taken
    /// whatever the limit. The rest stay due.
    mutating func takeDue(
        at now: UnixTime, limit: Int = .max, takingAllBefore overdue: UnixTime = -.infinity, alreadyDue: Set<Key> = []
    ) -> [Key] {
        var due: [Key] = []
        var counted = 0
        while let top = heap.first, top.time <= now, counted < limit || top.time <= overdue {
            pop()
            guard times[top.key] == top.time else { continue }
            times[top.key] = nil
            due.append(top.key)
            if !alreadyDue.contains(top.key) { counted += 1 }
        }
        return due
    }

    private mutating func rebuild() {
        heap = times.map { Entry(time: $0.value, key: $0.key) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].time < heap[parent].time else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].time < heap[smallest].time { smallest = left }
            if right < heap.count, heap[right].time < heap[smallest].time { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
