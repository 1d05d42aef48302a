import FleetCore
import Synchronization

/// A store that keeps everything in memory: for tests, the simulator and benchmarks. Every account's
/// rows apart, as in the SQL stores (``AccountStore``); used as a plain ``Store`` it is the owner's.
///
/// `failNextCommit` makes the next commit throw without applying anything, so tests can show that a
/// failed write changes nothing.
public final class InMemoryStore: AccountStore {
    private struct State {
        var contents: [AccountID: StoreContents] = [:]
        var history: [AccountID: [CardHistoryRecord]] = [:]
        var accounts: [AccountID: AccountRecord] = [:]
        /// The last `LFG-Report-Seq` taken per session (``StoreWrite/takeReportSeq(_:_:)``).
        var reportSeqs: [AccountID: [SessionID: Int]] = [:]
        var failNextCommit = false
        var commits = 0
    }

    private let state = Mutex(State())

    /// - Parameter contents: the owner's rows to start with.
    public init(_ contents: StoreContents = StoreContents()) {
        state.withLock { $0.contents[.owner] = contents }
    }

    public func load(account: AccountID) async throws(StoreError) -> StoreContents {
        state.withLock { $0.contents[account] ?? StoreContents() }
    }

    public func commit(_ writes: [StoreWrite], account: AccountID) async throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            if state.failNextCommit {
                state.failNextCommit = false
                throw StoreError(operation: "commit", message: "injected failure")
            }
            var contents = state.contents[account] ?? StoreContents()
            var history = state.history[account] ?? []
            var seqs = state.reportSeqs[account] ?? [:]
            var conflict = StoreConflict()
            for write in writes {
                if case .deleteSession(let sid) = write { seqs[sid] = nil }
                guard case .takeReportSeq(let sid, let seq) = write else { continue }
                if ReportSequence.isStale(seq, after: seqs[sid]) {
                    conflict.staleReports[sid] = .init(lastSeq: seqs[sid]!, report: contents.sessions[sid])
                }
                seqs[sid] = seq
            }
            for write in writes {
                guard case .putQuestion(let question) = write, let stored = contents.questions[question.id],
                    StoreConflict.replacesSettled(write, stored: stored)
                else { continue }
                conflict.settledQuestions[question.id] = stored
            }
            if !conflict.isEmpty { throw .conflict(conflict) }
            for write in writes { Self.apply(write, to: &contents, history: &history) }
            state.contents[account] = contents
            state.history[account] = history
            state.reportSeqs[account] = seqs
            state.commits += 1
        }
    }

    public func history(account: AccountID, deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        state.withLock { state in
            Array((state.history[account] ?? []).reversed().filter { deviceId == nil || $0.deviceId == deviceId }.prefix(limit))
        }
    }

    public func accounts() async throws(StoreError) -> [AccountRecord] {
        state.withLock { Array($0.accounts.values) }.sorted { $0.id < $1.id }
    }

    public func putAccount(_ record: AccountRecord) async throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            if state.failNextCommit {
                state.failNextCommit = false
                throw StoreError(operation: "put account", message: "injected failure")
            }
            state.accounts[record.id] = record
        }
    }

    public func addAccount(_ record: AccountRecord) async throws(StoreError) -> Bool {
        try state.withLock { (state: inout State) throws(StoreError) in
            if state.failNextCommit {
                state.failNextCommit = false
                throw StoreError(operation: "add account", message: "injected failure")
            }
            guard state.accounts[record.id] == nil else { return false }
            state.accounts[record.id] = record
            return true
        }
    }

    /// Makes the next ``commit(_:)`` (or account write) throw and apply nothing.
    public func failNextCommit() { state.withLock { $0.failNextCommit = true } }

    /// How many commits succeeded.
    public var commitCount: Int { state.withLock { $0.commits } }
    private static func apply(_ write: StoreWrite, to contents: inout StoreContents, history: inout [CardHistoryRecord]) {
        switch write {
        case .putSession(let sid, let report): contents.sessions[sid] = report
        case .deleteSession(let sid): contents.sessions[sid] = nil
        case .putHost(let host, let heartbeat): contents.hosts[host] = heartbeat
        case .putDevice(let deviceId, let record): contents.devices[deviceId] = record
        case .putSince(let since): contents.since.merge(since) { _, new in new }
        case .deleteSince(let sids): for sid in sids { contents.since[sid] = nil }
        case .recordHistory(let event): history.apply(event)
        case .putRetiredChannels(let channels): contents.retiredChannels = channels
        case .putRetiredChannelsOf(let devices, let channels):
            contents.retiredChannels = contents.retiredChannels.filter { !devices.contains($0.deviceId) } + channels
        case .deleteDevice(let deviceId): contents.devices[deviceId] = nil
        case .putQuestion(let question): contents.questions[question.id] = question
        case .deleteQuestions(let ids): for id in ids { contents.questions[id] = nil }
        case .putDeviceCredential(let record): contents.deviceCredentials[record.id] = record
        case .takeReportSeq: break  // checked and kept by commit, before any write applies
        }
    }
}

extension [CardHistoryRecord] {
    /// Applies a history event: a start opens a record; adoption and end complete the device's open one.
    public mutating func apply(_ event: CardHistoryEvent) {
        switch event {
        case .started(let deviceId, let at, let origin):
            append(CardHistoryRecord(deviceId: deviceId, startedAt: at, origin: origin))
        case .adopted(let deviceId, let at):
            guard let index = lastIndex(where: { $0.deviceId == deviceId && $0.endedAt == nil }) else { return }
            if self[index].adoptedAt == nil { self[index].adoptedAt = at }
        case .ended(let deviceId, let at, let reason):
            guard let index = lastIndex(where: { $0.deviceId == deviceId && $0.endedAt == nil }) else { return }
            self[index].endedAt = at
            self[index].endReason = reason
        }
    }
}
