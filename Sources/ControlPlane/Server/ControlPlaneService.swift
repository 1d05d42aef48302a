import APNs
import FleetCore
import Foundation
import Synchronization

/// The control plane's driver: it owns the fleet, the watcher and the store, runs the watcher against
/// an injected wall clock, duration clock, store and push gateway, and carries out its effects.
///
/// Mutations run one at a time (a FIFO lock held across the store commit; recording routine refreshes'
/// answers waits behind the rest: ``LockTurns``), and memory changes only after the store committed, so a
/// failed write changes nothing. Pushes leave outside the lock.
public actor ControlPlaneService {
    /// What the service runs against.
    public struct Dependencies: Sendable {
        public var store: any Store
        public var gateway: any PushGateway
        public var decisionLog: any DecisionLogSink
        public var wallClock: WallClock
        public var clock: any Clock<Duration>
        public var guards: GuardSet
        /// Staleness, renewal, token ageing and the priority budget (`LFG_STALE_AFTER_S`).
        public var policy: CardPolicy
        /// The watcher's tick period (`LFG_TICK_MS`).
        public var tickInterval: Duration
        /// How long a change waits for the rest of its burst before the prompt tick.
        public var coalesceWindow: Duration
        /// Where failures that have no request to answer go (stderr in `lfg serve`).
        public var reportProblem: @Sendable (String) -> Void
        /// Sends question alerts and withdrawals (contract 8.2); nil: questions are never pushed.
        public var questionNotifier: (any QuestionNotifier)?
        /// Seconds until a question whose prompt gives no `expiresAt` expires (`LFG_QUESTION_TTL_S`).
        public var questionLifetime: Double
        /// Several instances on one database (contract 8.4): this account's part of the leases, inbox and
        /// notifications; nil when this instance is the only one (SQLite, tests), which then drives every device.
        public var coordinator: AccountCoordinator? = nil
        /// How long a lease lasts past its last renewal (seconds): the takeover time after a kill -9.
        public var leaseTTL: Double = ServerConfig.defaultLeaseTTL
        /// Round trips to the database so far, for `GET /metrics` (PostgreSQL); nil when not counted.
        public var databaseRoundTrips: (@Sendable () -> Int)? = nil
        /// Seals private devices' alerts to their keys (contract 8.3); `lfg serve` wires Sealing's HPKE.
        public var alertSealing: any AlertSealing
        /// The instance's one timer for every account (`lfg serve`): the service is woken by it only when
        /// its next tick is due (``nextTickDue``), and its `/api/events` keepalives ride on it too. Nil: the
        /// service ticks every `tickInterval` on a timer of its own (tests, the simulator's server, benches).
        public var ticker: InstanceTicker? = nil

        public init(
            store: any Store, gateway: any PushGateway, decisionLog: any DecisionLogSink,
            wallClock: WallClock = .system, clock: any Clock<Duration> = ContinuousClock(), guards: GuardSet = .all,
            policy: CardPolicy = CardPolicy(), tickInterval: Duration = .milliseconds(2000),
            coalesceWindow: Duration = .milliseconds(10), reportProblem: @escaping @Sendable (String) -> Void = { _ in },
            questionNotifier: (any QuestionNotifier)? = nil, questionLifetime: Double = QuestionBook.defaultLifetime,
            alertSealing: any AlertSealing = NoAlertSealing()
        ) {
            self.alertSealing = alertSealing
            self.questionNotifier = questionNotifier
            self.questionLifetime = questionLifetime
            self.store = store
            self.gateway = gateway
            self.decisionLog = decisionLog
            self.wallClock = wallClock
            self.clock = clock
            self.guards = guards
            self.policy = policy
            self.tickInterval = tickInterval
            self.coalesceWindow = coalesceWindow
            self.reportProblem = reportProblem
        }
    }

    let dependencies: Dependencies
    var watcher: Watcher
    var fleet = FleetSnapshot()
    /// The last `LFG-Report-Seq` taken per session (``ReportSequence``), in memory: after a restart the
    /// first numbered report is taken whatever its number. Unused when sharing a database: the store keeps
    /// the numbers then (``StoreWrite/takeReportSeq(_:_:)``), so the order holds across instances.
    var reportSeqs: [SessionID: Int] = [:]
    /// Session changes waiting to be committed as one group, and their answers (group commit). Behind its
    /// own lock, not the actor: a request queues its change and waits for its answer without a trip onto
    /// the actor; only a group's leader goes there to commit.
    nonisolated let sessionChanges = Mutex(SessionChangeQueue())
    var gate: PushGate?
    var recentLog: [String] = []
    /// Commits of APNs answers that failed (their pushes are re-decided at the next tick).
    var unrecordedAnswerCommits = 0
    /// Question alerts that could not be sealed to their device's key (each went with the placeholder alone).
    public internal(set) var alertSealingFailures = 0
    static let recentLogLimit = 1000
    /// Session changes and decision-log lines, for `GET /api/events`.
    public nonisolated let events = EventHub()
    let changes = ChangeSignal()
    /// Every question and its lifecycle (contract 8.2).
    var questions: QuestionBook
    /// The long polls of `GET /api/questions/{id}/wait`.
    public nonisolated let questionWaiters = QuestionWaiters()
    /// Question pushes decided but not yet sent (sent after the response, never slowing a request).
    var questionOutbox: [QuestionPush] = []
    /// The WidgetKit reload budget per device (seed 002), and the reloads decided but not yet sent.
    var widgetThrottle = WidgetReloadThrottle()
    var widgetOutbox: [QuestionPush.Target] = []
    let questionOutboxSignal = ChangeSignal()
    /// The devices this instance drives and how fresh its leases are (several instances on one database).
    var coordination = CoordinationState()
    /// Wakes the follow-up of a lease round (takeover, inbox).
    let leaseFollowUp = ChangeSignal()
    /// Wakes the reading of the fleet changes other instances made.
    let fleetFollowUp = ChangeSignal()
    /// What `GET /metrics` reports.
    var metrics = ServiceMetrics()
    let commitTimes = TimedStore.CommitTimes()
    /// Pairing codes and device credentials (issue 16), read by the authenticator on every request.
    public nonisolated let pairing = Pairing()
    /// Stale-date refreshes ticks decided, waiting for ``runRefreshDeliveries()`` (while it runs; a service
    /// ticked without `run()` sends them inline, after the tick's other pushes).
    private var refreshQueue = RefreshQueue()
    private let refreshSignal = ChangeSignal()
    private var isDeliveringRefreshesAside = false
    /// A change was noted since the tick loop last woke (a wake-up without one is the timer's).
    private var isChangeNoted = false
    /// The FIFO lock's holder and waiters (recording refresh answers waits behind the rest: ``LockTurns``).
    private var lockTurns = LockTurns<CheckedContinuation<Void, Never>>()

    /// - Parameter gate: whether pushing is allowed; nil means allowed (tests, the simulator).
    public init(_ dependencies: Dependencies, gate: PushGate? = nil, recentLog: [String] = []) {
        var dependencies = dependencies
        dependencies.store = TimedStore(base: dependencies.store, clock: dependencies.clock, commits: commitTimes)
        self.dependencies = dependencies
        self.watcher = Watcher(guards: dependencies.guards, policy: dependencies.policy)
        self.questions = QuestionBook(defaultLifetime: dependencies.questionLifetime)
        self.gate = gate
        self.recentLog = Array(recentLog.suffix(Self.recentLogLimit))
    }

    var now: UnixTime { dependencies.wallClock.now }

    /// Whether the watcher may push, and why not.
    public var pushGateReason: String? { gate?.reason(guards: dependencies.guards) }

    /// Replaces the push gate (once the real listening port and the lock are known).
    public func setGate(_ gate: PushGate?) {
        self.gate = gate
        noteChange()
    }

    /// Loads the store into memory and hands it to the watcher. Call once, before serving.
    public func start() async throws(StoreError) {
        await acquire()
        defer { release() }
        let contents: StoreContents
        if let coordinator = dependencies.coordinator {
            // With other instances, devices arrive one by one as their leases are won: only the shared part
            // is read, in one snapshot with the revision it carries (changes committed after it are read later).
            let loaded = try await coordinator.shared.loadFleet(account: coordinator.account)
            coordination.fleetRevision = loaded.revision
            contents = loaded.contents
        } else {
            contents = try await dependencies.store.load()
        }
        fleet = FleetSnapshot(sessions: contents.sessions, hosts: contents.hosts, heardAt: now)
        pairing.load(contents.deviceCredentials)
        _ = try await apply([
            .loaded(devices: contents.devices, since: contents.since, retiredChannels: contents.retiredChannels, at: now)
        ])
        try await loadQuestions(Array(contents.questions.values), sessions: contents.sessions)
    }

    // MARK: the lock

    /// Waits for the lock's turn. `isRoutine`: recording the answers to stale-date refreshes, which lets
    /// changes' ticks and reports' commits go first (``LockTurns``).
    func acquire(isRoutine: Bool = false) async {
        guard !lockTurns.take() else { return }
        await withCheckedContinuation { lockTurns.enqueue($0, isRoutine: isRoutine) }
    }

    func release() {
        lockTurns.pass()?.resume()
    }

    // MARK: carrying out effects

    /// Runs `events` through a copy of the watcher, commits their writes (with `writes` first) in one
    /// transaction, and only then keeps the new watcher. Returns what must go to APNs. Hold the lock.
    ///
    /// The copy stages its writes to the boxes (``Watcher/beginStagedStep()``): until the commit, readers see
    /// the committed watcher, and the boxes it did not touch are never copied.
    func apply(_ events: [WatcherEvent], writes: [StoreWrite] = []) async throws(StoreError) -> Outgoing {
        var next = watcher
        next.beginStagedStep()
        var allWrites = writes
        var lines: [DecisionLogLine] = []
        var outgoing = Outgoing()
        for event in events {
            for effect in next.handle(event) {
                switch effect {
                case .send(let batch): outgoing.batches.append(batch)
                case .requestChannel(let request): outgoing.channelRequests.append(request)
                case .log(let line): lines.append(line)
                default: allWrites += effect.storeWrites
                }
            }
        }
        if dependencies.coordinator != nil { allWrites = allWrites.map(scopedToHeldDevices) }
        if !allWrites.isEmpty { try await dependencies.store.commit(allWrites) }
        // The copy taken above must be gone before the staged writes are folded in, or they copy every box.
        watcher = consume next
        watcher.commitStagedStep()
        await record(lines)
        return outgoing
    }

    /// Appends to the decision log, keeps the recent lines, and broadcasts them as `log` events.
    func record(_ lines: [DecisionLogLine]) async {
        guard !lines.isEmpty else { return }
        await dependencies.decisionLog.append(lines)
        for line in lines {
            let text = line.jsonText
            recentLog.append(text)
            events.publish("log") { Data(text.utf8) }
        }
        if recentLog.count > Self.recentLogLimit { recentLog.removeFirst(recentLog.count - Self.recentLogLimit) }
    }

    /// Sends every batch and channel request concurrently, then feeds all the answers back to the watcher
    /// in one commit; repeats while the answers call for more (a renewal's start, then the old card's end).
    /// - Parameter isRoutine: stale-date refreshes: their answers are recorded after waiting changes (``LockTurns``).
    func deliver(_ first: Outgoing, isRoutine: Bool = false) async {
        var outgoing = first
        while !outgoing.isEmpty {
            let answers = await dependencies.gateway.carryOut(outgoing, now: { self.dependencies.wallClock.now })
            metrics.countPushes(answers)
            await acquire(isRoutine: isRoutine)
            do {
                outgoing = try await apply(answers)
            } catch {
                // Nothing they changed was kept: release what they answered so the next tick re-decides
                // and re-sends, and count it (a device must never go silent until a restart).
                outgoing = Outgoing()
                unrecordedAnswerCommits += 1
                _ = watcher.handle(.answersUnrecorded(answers, at: now))
                dependencies.reportProblem("recording APNs answers failed: \(error); the next tick re-sends")
            }
            release()
            // A card skipped while its push was in flight is decided again now, not at the next tick.
            noteChange()
        }
    }

    // MARK: ticking

    /// One watcher tick now: decide for every device, persist, send, and record the answers.
    /// Does nothing while the push gate is closed.
    public func tick() async {
        await expireQuestions()
        sendOwedWidgetReloads()
        guard pushGateReason == nil, holdsFreshLeases else { return }
        await acquire()
        let outgoing: Outgoing
        // Real elapsed time, for the operator's figure only (nothing decides on it).
        let tickStarted = ContinuousClock.now
        defer { metrics.tickSeconds.record(ContinuousClock.now - tickStarted) }
        do {
            outgoing = try await apply([.ticked(fleet, at: now)])
        } catch {
            release()
            dependencies.reportProblem("watcher tick failed: \(error)")
            return
        }
        release()
        // A change's push never waits behind routine stale-date refreshes (a wave of them can be hundreds
        // a tick): the change goes to APNs at once, the refreshes a slice at a time beside the tick loop, which
        // moves on to the next change at once.
        let (changes, refreshes) = outgoing.splitting(\.isStaleDateRefresh)
        if isDeliveringRefreshesAside {
            if !refreshes.isEmpty {
                refreshQueue.append(refreshes.batches)
                refreshSignal.notify()
            }
            await deliver(changes)
        } else {
            await deliver(changes)
            await deliver(refreshes, isRoutine: true)
        }
    }

    /// Sends the refreshes ticks set aside, one slice at a time (``RefreshQueue``), until cancelled.
    private func runRefreshDeliveries() async {
        isDeliveringRefreshesAside = true
        defer { isDeliveringRefreshesAside = false }
        while !Task.isCancelled {
            await refreshSignal.wait()
            while !Task.isCancelled, let slice = refreshQueue.nextSlice() {
                await deliver(Outgoing(batches: slice), isRoutine: true)
            }
        }
    }

    /// Ticks every `tickInterval`, and promptly (after `coalesceWindow`) when something changed, and sends
    /// the `/api/events` keepalives every ``EventHub/heartbeatInterval``, until cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            // Sharing the instance's ticker, the keepalives ride on it (no timer per account).
            if dependencies.ticker == nil { group.addTask { await self.sendHeartbeats() } }
            group.addTask { await self.runQuestionPushes() }
            group.addTask { await self.runRefreshDeliveries() }
            // The lease rounds and notifications are the instance's (``LeaseDirector``): it calls in here.
            if dependencies.coordinator != nil {
                group.addTask { await self.runLeaseFollowUps() }
                group.addTask { await self.runFleetFollowUps() }
            }
            if let ticker = dependencies.ticker {
                await runTicks(sharing: ticker, as: ticker.register(changes, events: events))
            } else {
                await runTicks()
            }
            group.cancelAll()
        }
    }

    /// Keeps every `/api/events` stream alive (and lets a dead one be noticed) until cancelled.
    nonisolated func sendHeartbeats() async {
        let clock = dependencies.clock
        while !Task.isCancelled {
            do { try await clock.sleep(for: EventHub.heartbeatInterval) } catch { return }
            events.heartbeat()
        }
    }

    private func runTicks() async {
        let clock = dependencies.clock
        let interval = dependencies.tickInterval
        let window = dependencies.coalesceWindow
        let changes = changes
        while !Task.isCancelled {
            let isIdle = isIdle
            let isChange = await withTaskGroup(of: Bool.self) { group in
                // An idle service waits for a change alone: no timer wake-up at all (an instance serves
                // thousands of accounts, most of them with nothing to decide most of the time).
                if !isIdle {
                    group.addTask {
                        try? await clock.sleep(for: interval)
                        return false
                    }
                }
                group.addTask {
                    await changes.wait()
                    return true
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            if Task.isCancelled { break }
            // One burst of changes, one push per card: let the rest of the burst land first.
            if isChange { try? await clock.sleep(for: window) }
            await tick()
        }
    }

    /// Ticks when the instance's ticker says this service is due, and promptly (after `coalesceWindow`)
    /// when something changed, until cancelled.
    private func runTicks(sharing ticker: InstanceTicker, as registration: InstanceTicker.Registration) async {
        defer { ticker.unregister(registration) }
        while !Task.isCancelled {
            ticker.schedule(registration, at: nextTickDue)
            await changes.wait()
            if Task.isCancelled { break }
            let isChange = isChangeNoted
            isChangeNoted = false
            // One burst of changes, one push per card: let the rest of the burst land first.
            if isChange { try? await dependencies.clock.sleep(for: dependencies.coalesceWindow) }
            await tick()
        }
    }

    /// When this service next needs a tick with nothing new happening (nil: only a change calls for one):
    /// the watcher's next timer (``Watcher/nextWake(_:now:)``), a question's expiry, an owed widget reload.
    /// While the leases are not surely valid a tick decides nothing, so one is due at every beat until they are.
    public var nextTickDue: UnixTime? {
        let now = now
        var times = [questions.nextExpiry, widgetThrottle.nextDue].compactMap { $0 }
        // A closed push gate opens with a change (``setGate(_:)``); until then a tick decides nothing.
        if pushGateReason == nil, let wake = watcher.nextWake(fleet, now: now) {
            times.append(holdsFreshLeases ? wake : now)
        }
        return times.min()
    }

    /// Tells the tick loop something changed.
    func noteChange() {
        isChangeNoted = true
        changes.notify()
    }

    /// Whether only a change calls for a tick: no timer of the watcher, no question expiring, no widget reload
    /// owed (``nextTickDue`` is nil). Anything that ends it notes a change (``noteChange()``).
    public var isIdle: Bool { nextTickDue == nil }
}
