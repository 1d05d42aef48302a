/// One view of the fleet (the sessions a device with these hidden folders sees), reduced incrementally:
/// each change moves only the changed session's part, where ``FleetReducer/reduce(_:previousSince:hiddenDirs:now:guards:silence:)``
/// folds every session again.
///
/// It folds the same ``SessionPart``s the full reduction folds, with the same card order and the same
/// content rule (``FleetReducer``'s `contentState`), so for the same parts both say the same thing
/// (`FleetTallyTests` checks it on random fleets). The caller keeps each session's current part and hands
/// the old one back when it replaces it.
public struct FleetTally: Hashable, Sendable {
    public let hiddenDirs: HiddenDirs
    public let guards: GuardSet
    public private(set) var working = 0
    public private(set) var needsInput = 0
    /// Sessions whose host is known down: while any is, the count is untrustworthy.
    public private(set) var unknown = 0
    /// Sessions with a baseline in this view (active rows, and unknown ones carrying one): the view's
    /// share of the reduction's `since`.
    public private(set) var baselines = 0
    /// Bumped whenever a session enters or leaves the view's baselines, so a reader can tell that the set
    /// of active sids moved even when the counts did not.
    public private(set) var membership: UInt64 = 0
    private var rows = CardOrderedList<Row>()
    private var asked = CardOrderedList<AskedRow>()

    /// A tally of `parts` (each session once) as a device hiding `hiddenDirs` sees them.
    public init(hiddenDirs: HiddenDirs, guards: GuardSet = .all, parts: some Sequence<SessionPart> = [SessionPart]()) {
        self.hiddenDirs = hiddenDirs
        self.guards = guards
        var rows: [Row] = []
        var asked: [AskedRow] = []
        for part in parts where counts(part) {
            add(part, rows: &rows, asked: &asked)
        }
        self.rows = CardOrderedList(rows)
        self.asked = CardOrderedList(asked)
    }

    /// Every active session (working + needs input).
    public var activeTotal: Int { working + needsInput }
    /// False while any session's state is unknown: such a count must never end or zero a card.
    public var isTrustworthy: Bool { unknown == 0 }

    /// Replaces one session's part (nil: the session is new, or gone). Returns whether the view changed:
    /// its content, its counts or its set of active sids.
    @discardableResult
    public mutating func replace(_ old: SessionPart?, with new: SessionPart?) -> Bool {
        let before = old.flatMap { counts($0) ? $0 : nil }
        let after = new.flatMap { counts($0) ? $0 : nil }
        guard before != after else { return false }
        if let before { remove(before) }
        if let after {
            var rows: [Row] = []
            var asked: [AskedRow] = []
            add(after, rows: &rows, asked: &asked)
            for row in rows { self.rows.insert(row) }
            for entry in asked { self.asked.insert(entry) }
        }
        if (before?.since == nil) != (after?.since == nil) { membership &+= 1 }
        return true
    }

    /// The card's content at `now`, as the full reduction of the same parts gives it.
    public func contentState(now: UnixTime) -> ContentState {
        FleetReducer.contentState(
            working: working, needsInput: needsInput, activeCount: rows.count, asked: asked.first?.question, now: now,
            guards: guards, rows: rows.prefix)
    }

    /// Whether this view counts `part` at all (its folder is not hidden and it has a share).
    private func counts(_ part: SessionPart) -> Bool {
        if case .none = part.share { return false }
        return !hiddenDirs.hides(part.cwd)
    }

    private mutating func add(_ part: SessionPart, rows: inout [Row], asked: inout [AskedRow]) {
        if part.since != nil { baselines += 1 }
        switch part.share {
        case .none: return
        case .unknown: unknown += 1
        case .row(let row, let question):
            if row.state == .needsInput { needsInput += 1 } else { working += 1 }
            rows.append(row)
            if let question { asked.append(AskedRow(row: row, question: question)) }
        }
    }

    private mutating func remove(_ part: SessionPart) {
        if part.since != nil { baselines -= 1 }
        switch part.share {
        case .none: return
        case .unknown: unknown -= 1
        case .row(let row, let question):
            if row.state == .needsInput { needsInput -= 1 } else { working -= 1 }
            rows.remove(row)
            if question != nil { asked.remove(row) }
        }
    }
}
