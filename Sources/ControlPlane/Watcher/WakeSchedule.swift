import FleetCore

/// When each key (a device, a session) must be looked at again, earliest first: the watcher's timers.
///
/// A binary min-heap with lazy deletion: rescheduling a key leaves its old entry in the heap, and an entry
/// whose time is no longer the key's is skipped when it comes out. The heap is rebuilt when stale entries
/// outnumber live ones, so it stays within twice the live keys.
///
/// Its changes can be staged (``beginStaging()``), as the boxes' are (``StagedDictionary``): the times go to
/// an overlay, new entries to a small heap of their own, and due keys are found by reading the heap, not
/// popping it, so a copy taken before (the driver's committed watcher) keeps sharing the 10,000 devices' or
/// 50,000 sessions' entries instead of having them copied by the step's first change.
struct WakeSchedule<Key: Hashable & Sendable>: Sendable {
    private struct Entry: Sendable {
        var time: UnixTime
        var key: Key
    }

    private var times = StagedDictionary<Key, UnixTime>()
    private var heap: [Entry] = []
    /// The entries added while staging; nil when not staging.
    private var stagedHeap: [Entry]?

    /// When `key` is due next; nil: never.
    func time(of key: Key) -> UnixTime? { times[key] }

    /// The earliest time any key may be due: never later than the true earliest (an entry a reschedule left
    /// behind may come first, and only costs a look that finds nothing due); nil when the heap is empty.
    var earliest: UnixTime? { [heap.first?.time, stagedHeap?.first?.time].compactMap { $0 }.min() }

    /// Makes `key` due at `time` (nil: never), replacing what it had.
    mutating func schedule(_ key: Key, at time: UnixTime?) {
        guard times[key] != time else { return }
        times[key] = time
        guard let time else { return }
        if stagedHeap != nil {
            Self.push(Entry(time: time, key: key), onto: &stagedHeap!)
            return
        }
        Self.push(Entry(time: time, key: key), onto: &heap)
        if heap.count > 2 * times.count + 64 { rebuild() }
    }

    /// Takes the keys due at `now` out of the schedule, earliest first: at most `limit` of them besides those
    /// in `alreadyDue` (taken too, not counted), except that every key due at or before `overdue` is taken
    /// whatever the limit. The rest stay due.
    mutating func takeDue(
        at now: UnixTime, limit: Int = .max, takingAllBefore overdue: UnixTime = -.infinity, alreadyDue: Set<Key> = []
    ) -> [Key] {
        guard let staged = stagedHeap else { return popDue(at: now, limit: limit, overdue: overdue, alreadyDue: alreadyDue) }
        // Staging: read the due entries of both heaps instead of popping them; the ones taken read stale from now
        // on (their time is gone) and are dropped when the staged changes are folded in.
        let candidates = (Self.entries(of: heap, dueAt: now) + Self.entries(of: staged, dueAt: now))
            .sorted { $0.time < $1.time }
        var due: [Key] = []
        var counted = 0
        for entry in candidates {
            guard counted < limit || entry.time <= overdue else { break }
            guard times[entry.key] == entry.time else { continue }
            times[entry.key] = nil
            due.append(entry.key)
            if !alreadyDue.contains(entry.key) { counted += 1 }
        }
        return due
    }

    /// From now on, changes are staged until ``commitStaged()``.
    mutating func beginStaging() {
        times.beginStaging()
        stagedHeap = []
    }

    /// Folds the staged changes in. Call it once no copy taken before ``beginStaging()`` is alive any more,
    /// or the entries are copied here after all.
    mutating func commitStaged() {
        guard let staged = stagedHeap else { return }
        stagedHeap = nil
        times.commitStaged()
        for entry in staged { Self.push(entry, onto: &heap) }
        // The entries the step took are stale now and come first: drop them, so the next look starts at live ones.
        while let top = heap.first, times[top.key] != top.time { Self.pop(&heap) }
        if heap.count > 2 * times.count + 64 { rebuild() }
    }

    private mutating func popDue(at now: UnixTime, limit: Int, overdue: UnixTime, alreadyDue: Set<Key>) -> [Key] {
        var due: [Key] = []
        var counted = 0
        while let top = heap.first, top.time <= now, counted < limit || top.time <= overdue {
            Self.pop(&heap)
            guard times[top.key] == top.time else { continue }
            times[top.key] = nil
            due.append(top.key)
            if !alreadyDue.contains(top.key) { counted += 1 }
        }
        return due
    }

    /// The entries of `heap` due at `now`, in no order: a walk that stops at every entry not due (the
    /// entries below one are later still).
    private static func entries(of heap: [Entry], dueAt now: UnixTime) -> [Entry] {
        var found: [Entry] = []
        var stack = heap.isEmpty ? [] : [0]
        while let index = stack.popLast() {
            guard heap[index].time <= now else { continue }
            found.append(heap[index])
            let left = 2 * index + 1
            if left < heap.count { stack.append(left) }
            if left + 1 < heap.count { stack.append(left + 1) }
        }
        return found
    }

    private mutating func rebuild() {
        heap = times.entries.map { Entry(time: $0.value, key: $0.key) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { Self.siftDown(index, in: &heap) }
    }

    private static func push(_ entry: Entry, onto heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].time < heap[parent].time else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func pop(_ heap: inout [Entry]) {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0, in: &heap) }
    }

    private static func siftDown(_ start: Int, in heap: inout [Entry]) {
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
