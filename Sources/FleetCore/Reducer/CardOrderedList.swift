/// Something placed by its card row (``FleetReducer/cardOrder(_:_:)``).
public protocol CardOrdered: Hashable, Sendable {
    var row: Row { get }
}

extension Row: CardOrdered {
    public var row: Row { self }
}

/// A row with the question its session asks the card.
public struct AskedRow: CardOrdered {
    public var row: Row
    public var question: Question
}

/// Elements kept in card order, for a reduction that changes one session at a time (``FleetTally``).
///
/// A sorted array of buckets: inserting or removing moves at most one bucket's elements, and the first
/// rows are read without touching the rest, so a change costs microseconds at 50,000 sessions where a
/// re-sort costs milliseconds. Sids are unique, and card order is total over (state, since, sid).
struct CardOrderedList<Element: CardOrdered>: Hashable, Sendable {
    private var buckets: [[Element]] = []
    private(set) var count = 0
    /// A bucket past this size is split in two.
    static var bucketLimit: Int { 512 }

    init() {}

    /// Builds the list from `elements` in any order, with one sort.
    init(_ elements: some Sequence<Element>) {
        let sorted = elements.sorted { FleetReducer.cardOrder($0.row, $1.row) }
        count = sorted.count
        let half = Self.bucketLimit / 2
        buckets = stride(from: 0, to: sorted.count, by: half).map { Array(sorted[$0..<min($0 + half, sorted.count)]) }
    }

    var first: Element? { buckets.first?.first }

    /// The first `limit` elements in card order (all of them when nil).
    func prefix(_ limit: Int?) -> [Element] {
        var result: [Element] = []
        for bucket in buckets {
            for element in bucket {
                if let limit, result.count >= limit { return result }
                result.append(element)
            }
        }
        return result
    }

    mutating func insert(_ element: Element) {
        count += 1
        guard !buckets.isEmpty else {
            buckets = [[element]]
            return
        }
        // The first bucket whose last element comes after the new one (or the last bucket).
        let index = min(bucketIndex(for: element.row), buckets.count - 1)
        let position = buckets[index].partitioningIndex { FleetReducer.cardOrder(element.row, $0.row) }
        buckets[index].insert(element, at: position)
        if buckets[index].count > Self.bucketLimit {
            let upper = Array(buckets[index][(Self.bucketLimit / 2)...])
            buckets[index].removeSubrange((Self.bucketLimit / 2)...)
            buckets.insert(upper, at: index + 1)
        }
    }

    /// Removes the element with `row`'s position; false when there is none.
    @discardableResult
    mutating func remove(_ row: Row) -> Bool {
        let index = bucketIndex(for: row)
        guard index < buckets.count else { return false }
        let position = buckets[index].partitioningIndex { !FleetReducer.cardOrder($0.row, row) }
        guard position < buckets[index].count, buckets[index][position].row.sid == row.sid else { return false }
        buckets[index].remove(at: position)
        if buckets[index].isEmpty { buckets.remove(at: index) }
        count -= 1
        return true
    }

    /// The first bucket whose last element does not come before `row`.
    private func bucketIndex(for row: Row) -> Int {
        buckets.partitioningIndex { !FleetReducer.cardOrder($0[$0.count - 1].row, row) }
    }
}

extension Array {
    /// The first index whose element satisfies `belongsAfter` (false then true along the array): binary search.
    public func partitioningIndex(where belongsAfter: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
