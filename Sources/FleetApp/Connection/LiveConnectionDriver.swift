import FleetCore

/// Runs a ``LiveConnection`` for the app on the main actor: opens and closes the event stream, applies
/// streamed changes through the ``FleetAppDriver`` (the one owner of the session model), asks it to fetch,
/// and wakes itself at the connection's next deadline on an injected clock.
///
/// Every task it starts is owned and cancelled by ``backgrounded()`` / ``stop()``. A stream replaced by a
/// newer one can still deliver a late signal; each signal carries its stream's generation and stale ones
/// are dropped.
@MainActor
public final class LiveConnectionDriver {
    /// The connection's state; read ``LiveConnection/status`` for the list's banner.
    public private(set) var connection: LiveConnection
    /// Called whenever ``connection``'s status changes.
    public var onStatusChange: ((ConnectionStatus) -> Void)?
    /// Called with each streamed question (asked, answered, cancelled, expired).
    public var onQuestion: ((Question) -> Void)?

    let fleet: FleetAppDriver
    let transport: any EventStreamTransport
    let phoneClock: WallClock
    var parser = ServerSentEventParser()
    var generation = 0
    var streamTask: Task<Void, Never>?
    let timer: DeadlineTimer

    public init(
        fleet: FleetAppDriver, transport: any EventStreamTransport, phoneClock: WallClock,
        sleeper: any Clock<Duration>, policy: LiveConnectionPolicy = LiveConnectionPolicy()
    ) {
        self.fleet = fleet
        self.transport = transport
        self.phoneClock = phoneClock
        self.timer = DeadlineTimer(clock: phoneClock, sleeper: sleeper)
        connection = LiveConnection(policy: policy)
        let previous = fleet.onCallAnswered
        fleet.onCallAnswered = { [weak self] call, error in
            previous?(call, error)
            guard let self, case .fetchSessions = call else { return }
            self.handle(.fetchAnswered(error, at: self.phoneClock.now))
        }
    }

    /// `scenePhase == .active`.
    public func foregrounded() { handle(.foregrounded(at: phoneClock.now)) }
    /// `scenePhase == .background`.
    public func backgrounded() { handle(.backgrounded(at: phoneClock.now)) }
    /// The server or the credential changed.
    public func settingsChanged() { handle(.settingsChanged(at: phoneClock.now)) }

    /// Closes the stream and cancels the timer (shutdown, tests).
    public func stop() {
        closeStream()
        timer.cancel()
    }

    // MARK: Carrying out

    func handle(_ event: LiveConnectionEvent) {
        let before = connection.status
        let effects = connection.handle(event)
        for effect in effects { perform(effect) }
        scheduleTimer()
        if connection.status != before { onStatusChange?(connection.status) }
    }

    func perform(_ effect: LiveConnectionEffect) {
        switch effect {
        case .openStream: openStream()
        case .closeStream: closeStream()
        case .fetchSessions: fleet.refresh()
        case .apply(.session(let session)): fleet.changeModel { $0.applyStreamed(session) }
        case .apply(.sessionRemoved(let sid)): fleet.changeModel { $0.remove(sid) }
        case .apply(.question(let question)):
            // A question settled elsewhere loses its delivered alert at once (the background push may be late).
            fleet.questionStreamed(question)
            onQuestion?(question)
        case .apply(.ignored): break
        }
    }

    func openStream() {
        closeStream()
        guard let server = fleet.engine.configuration.defaultServer else {
            handle(.streamEnded(.badServerURL("no server is configured"), at: phoneClock.now))
            return
        }
        generation += 1
        let mine = generation
        parser = ServerSentEventParser()
        let signals = transport.events(on: server)
        streamTask = Task { [weak self] in
            for await signal in signals {
                guard let self, !Task.isCancelled else { return }
                self.received(signal, generation: mine)
            }
        }
    }

    func closeStream() {
        generation += 1
        streamTask?.cancel()
        streamTask = nil
    }

    func received(_ signal: EventStreamSignal, generation stream: Int) {
        guard stream == generation else { return }
        let now = phoneClock.now
        switch signal {
        case .opened:
            handle(.streamOpened(at: now))
        case .bytes(let bytes):
            do throws(ServerSentEventParser.Failure) {
                handle(.streamReceived(try parser.feed(bytes), at: now))
            } catch {
                handle(.streamEnded(.unreadableAnswer("the event stream sent a line over 1 MiB"), at: now))
            }
        case .ended(let error):
            handle(.streamEnded(error, at: now))
        }
    }

    func scheduleTimer() {
        timer.schedule(connection.nextDeadline) { [weak self] in
            guard let self else { return }
            self.handle(.deadlineReached(at: self.phoneClock.now))
        }
    }
}
