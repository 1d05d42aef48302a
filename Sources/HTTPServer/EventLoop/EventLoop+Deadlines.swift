/// The loop's clock work, a few times per header deadline: slow headers cut, idle connections closed,
/// lingering closes ended, a paused listener watched again; and the server's shutdown.
extension EventLoop {
    /// How often deadlines are checked: a quarter of the header deadline, at most a second; often
    /// while stopping, so lingering closes end on time.
    var timerInterval: Duration {
        isShuttingDown ? .milliseconds(50) : min(.seconds(1), core.configuration.headerDeadline / 4)
    }

    /// How long a connection whose last answer is sent (or refused over a cap) reads and drops what its
    /// client still sends before it is closed, at most: closing with input unread would reset it, and the
    /// client could lose the answer.
    static let lingerAfterLastAnswer = Duration.seconds(1)
    /// The same while the server stops, shorter so that stopping is prompt.
    static let lingerWhileStopping = Duration.milliseconds(250)

    /// Closes the connections past a deadline, when a check is due.
    func checkTimers() {
        let now = ContinuousClock.now
        guard now >= nextTimerCheck else { return }
        nextTimerCheck = now + timerInterval
        date.refresh()
        if isAcceptPaused, !isShuttingDown {
            isAcceptPaused = !watchListener()
        }
        let idleTimeout = core.configuration.connectionTimeoutSeconds
        for connection in Array(connections.values) {
            switch connection.phase {
            case .reading:
                if let due = connection.headersDue, due <= now {
                    // A client sending a byte now and then holds nothing past the deadline.
                    core.ledger.withLock { $0.expired() }
                    closeConnection(connection)
                } else if isIdle(connection, now: now, timeout: idleTimeout) {
                    closeConnection(connection)
                }
            case .writing:
                if isShuttingDown, connection.drainDue == nil {
                    // Its answer gets a bounded drain, then the connection closes: a reader that stopped
                    // reading never holds the server's shutdown for the idle timeout.
                    connection.drainDue = now + core.configuration.shutdownDrain
                }
                if let due = connection.drainDue, due <= now {
                    closeConnection(connection)
                } else if isIdle(connection, now: now, timeout: idleTimeout) {
                    closeConnection(connection)
                }
            case .lingering(let until):
                if until <= now { closeConnection(connection) }
            case .handling, .streaming:
                break  // a handler at work or a stream waiting for its next event is not idle
            }
        }
    }

    private func isIdle(_ connection: Connection, now: ContinuousClock.Instant, timeout: UInt32) -> Bool {
        timeout > 0 && now - connection.lastActivity >= .seconds(Int(timeout))
    }

    /// Starts the shutdown (on the loop's thread): no more connections; requests read from now on get
    /// 503; idle and half-read connections close; handlers and streams are cancelled, and what they
    /// answer is still sent, for at most `shutdownDrain` each (a reader that stopped reading is then
    /// closed). The loop ends when its last connection and task are done.
    func beginShutdown() {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        nextTimerCheck = .now
        if !isAcceptPaused { unwatchListener() }
        for task in orphanedHandlers.values { task.cancel() }
        for connection in Array(connections.values) {
            switch connection.phase {
            case .reading:
                advance(connection)  // a request already sent is read and answered 503
                if connection.phase == .reading { closeConnection(connection) }
            case .handling, .streaming:
                connection.task?.cancel()
            case .writing:
                break
            case .lingering:
                closeConnection(connection)
            }
        }
    }
}
