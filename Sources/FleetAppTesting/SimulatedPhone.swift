import FleetApp
import FleetCore

/// One phone for a discrete-event simulation: iOS (``InMemoryActivityHost``), the app's process
/// (a ``FleetAppEngine`` while it runs), its storage, and an outbox of calls to the servers.
///
/// Time is the simulator's ``VirtualClock``; nothing happens between calls. A loop drives it like this:
/// ```
/// phone.launch(inForeground: true)          // the app starts (or a background launch after a push-start)
/// while let due = phone.nextDueTime, due <= horizon {
///     clock.advance(to: due)
///     phone.runDue()                        // yields due ActivityKit events, fires due retries
///     for sent in phone.outbox.takeQueued() { /* deliver to the server; later: phone.answer(sent.id, ...) */ }
/// }
/// ```
public final class SimulatedPhone {
    /// What iOS knows: the cards, their tokens, the app's foreground state.
    public let host: InMemoryActivityHost
    /// Calls the app made, waiting for the simulator to deliver and answer them.
    public let outbox = InMemoryControlPlaneOutbox()
    /// The notification center: question alerts on the lock screen, the app's notices.
    public let alerts = InMemoryAlertCenter()
    /// What survives a relaunch (the device id and the sent-token cache).
    public let storage: any KeyValueStorage
    public let configuration: AppConfiguration
    public let guards: GuardSet
    /// The phone's sealing key pair (its Keychain): outlives every process of the app.
    public let sealKeys: (any SealKeyring)?
    /// The app's process while it runs; nil while terminated.
    public private(set) var app: FleetAppEngine?
    /// Whether the app's process is suspended (alive but running nothing).
    public private(set) var isSuspended = false
    let clock: WallClock
    var lastCallID: CallID = 0
    var traceOfEndedProcesses: [AppTraceEntry] = []

    public init(
        configuration: AppConfiguration, clock: WallClock, storage: any KeyValueStorage = InMemoryKeyValueStorage(),
        behaviour: InMemoryActivityHost.Behaviour = .init(), installID: UInt32 = 1, guards: GuardSet = .all,
        sealKeys: (any SealKeyring)? = nil
    ) {
        self.configuration = configuration
        self.sealKeys = sealKeys
        self.clock = clock
        self.storage = storage
        self.guards = guards
        host = InMemoryActivityHost(clock: clock, behaviour: behaviour, installID: installID)
    }

    /// The app's process starts (fresh engine, store hydrated from `cachedSessions`, the saved
    /// `hiddenDirs`) and runs trigger 1. A running app is only woken: brought to the foreground, or
    /// resumed in the background.
    public func launch(inForeground: Bool, cachedSessions: [SessionEntry] = [], hiddenDirs: HiddenDirs = []) {
        guard app == nil else {
            if inForeground { foreground() } else { resumeInBackground() }
            return
        }
        host.appLaunched(inForeground: inForeground)
        isSuspended = false
        let engine = FleetAppEngine(
            configuration: configuration, host: host, alerts: alerts, outbox: outbox, storage: storage, clock: clock, guards: guards,
            sealKeys: sealKeys, firstCallID: lastCallID + 1)
        app = engine
        engine.launch(cachedSessions: cachedSessions, hiddenDirs: hiddenDirs, inForeground: inForeground)
    }

    /// The app comes to the foreground (trigger 4); launches it first if it is not running.
    public func foreground() {
        guard let app else { return launch(inForeground: true) }
        isSuspended = false
        host.appForegrounded()
        app.foregrounded()
    }

    /// The app leaves the foreground and iOS suspends it: it runs nothing until it comes back, and what it
    /// knew of the sessions is a cache from then on.
    public func suspend() {
        host.appBackgrounded()
        if let app, !isSuspended { app.suspended() }
        isSuspended = app != nil
    }

    /// The app wakes in the background (a push-to-start's background launch of a suspended app).
    public func resumeInBackground() { isSuspended = false }

    /// The app's process dies; iOS keeps the cards. Answers to its calls will find nobody.
    public func terminate() {
        host.appTerminated()
        lastCallID = app?.lastCallID ?? lastCallID
        traceOfEndedProcesses += app?.takeTrace() ?? []
        app = nil
        isSuspended = false
    }

    /// When the next ActivityKit event or retry falls due while the app can run, or nil.
    public var nextDueTime: UnixTime? {
        guard let app, !isSuspended else { return nil }
        return [host.nextDueTime, app.nextTimerDue].compactMap { $0 }.min()
    }

    /// Hands the app every ActivityKit event due by now, one at a time, then fires due retries.
    public func runDue() {
        guard !isSuspended else { return }
        while let app, let event = host.takeNextDueEvent() { app.handle(event) }
        app?.fireDueTimers()
    }

    /// Takes what the app did since the last call, across relaunches, oldest first.
    public func takeTrace() -> [AppTraceEntry] {
        defer { traceOfEndedProcesses = [] }
        return traceOfEndedProcesses + (app?.takeTrace() ?? [])
    }

    /// A server's answer to call `id` reaches the app (dropped if the process that made it is gone).
    public func answer(_ id: CallID, _ result: Result<ControlPlaneReply, ControlPlaneError>) {
        app?.callAnswered(id, result)
    }
}
