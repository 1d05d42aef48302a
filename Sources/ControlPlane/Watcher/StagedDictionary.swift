/// A dictionary whose writes can be staged: while staging, writes go to a small overlay and the entries
/// as they were are left untouched, so a copy taken before (the driver's committed watcher) keeps sharing
/// them instead of having them copied on the first write.
///
/// Why: the driver runs each step on a copy of the watcher and keeps it only once the store committed.
/// Written in place, the 10,000 boxes of one owner's phones were copied whole on every step (copy-on-write:
/// about 40 % of a one-instance profile); staged, a step costs only the boxes it touched, and
/// ``commitStaged()`` folds them in once the copy it was taken from is gone.
///
/// Reads see the staged writes. Without staging, it is a plain dictionary.
public struct StagedDictionary<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private var base: [Key: Value]
    /// The writes staged since ``beginStaging()`` (nil inside: removed); nil when not staging.
    private var staged: [Key: Value?]?

    public init(_ entries: [Key: Value] = [:]) {
        base = entries
        staged = nil
    }

    /// The value for `key`, staged writes included.
    public subscript(key: Key) -> Value? {
        get {
            if let staged, let entry = staged[key] { return entry }
            return base[key]
        }
        set {
            if staged != nil {
                staged![key] = .some(newValue)
            } else {
                base[key] = newValue
            }
        }
    }

    /// Removes `key` and returns what it held.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        let value = self[key]
        self[key] = nil
        return value
    }

    /// Whether writes are staged (``beginStaging()``) and not yet folded in.
    public var isStaging: Bool { staged != nil }

    /// From now on, writes are staged until ``commitStaged()``.
    public mutating func beginStaging() {
        precondition(staged == nil, "a staged change is already open")
        staged = [:]
    }

    /// Folds the staged writes into the entries and stops staging. Call it once no copy taken before
    /// ``beginStaging()`` is alive any more, or the entries are copied here after all.
    public mutating func commitStaged() {
        guard let writes = staged else { return }
        staged = nil
        for (key, value) in writes { base[key] = value }
    }

    /// Every entry, staged writes included (a new dictionary while writes are staged: for reads of the whole).
    public var entries: [Key: Value] {
        guard let staged, !staged.isEmpty else { return base }
        var merged = base
        for (key, value) in staged { merged[key] = value }
        return merged
    }

    public var count: Int { entries.count }
    public var keys: Dictionary<Key, Value>.Keys { entries.keys }
    public var values: Dictionary<Key, Value>.Values { entries.values }
}

extension StagedDictionary: Equatable where Value: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.entries == rhs.entries }
}
