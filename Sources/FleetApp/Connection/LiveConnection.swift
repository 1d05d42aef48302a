import FleetCore

/// The thresholds of the app's live connection.
public struct LiveConnectionPolicy: Hashable, Sendable {
    /// An open stream silent this long is dead (the server sends a keepalive every 15 s; three missed).
    /// Without it a half-open connection (a phone that changed networks) would read "Live" for ever.
    public var silenceLimit: Double = 45
    /// While the stream is down, the list is fetched this often (seconds).
    public var fallbackFetchInterval: Double = 15
    /// The first reconnection wait (seconds); it doubles per failed attempt up to ``reconnectMaximum``.
    public var reconnectFirst: Double = 1
    public var reconnectMaximum: Double = 30

    public init() {}

    /// The wait before reconnection attempt `attempt` (1 = the first after a drop).
    public func reconnectDelay(attempt: Int) -> Double {
        min(reconnectMaximum, reconnectFirst * Double(1 << min(max(attempt - 1, 0), 20)))
    }
}

/// What happened to the connection: each carries its own time.
public enum LiveConnectionEvent: Hashable, Sendable {
    /// The app came on screen (`scenePhase == .active`).
    case foregrounded(at: UnixTime)
    /// The app left the screen: close everything.
    case backgrounded(at: UnixTime)
    /// The server or its credential changed in the settings: start over (and forget a refusal).
    case settingsChanged(at: UnixTime)
    /// The stream answered 200 with `text/event-stream`.
    case streamOpened(at: UnixTime)
    /// Bytes arrived on the stream and parsed into these.
    case streamReceived([ServerSentEventParser.Output], at: UnixTime)
    /// The stream closed or never opened; `error` says why (nil: the server ended it).
    case streamEnded(ControlPlaneError?, at: UnixTime)
    /// A `GET /api/sessions` answered (nil: it succeeded).
    case fetchAnswered(ControlPlaneError?, at: UnixTime)
    /// ``LiveConnection/nextDeadline`` came.
    case deadlineReached(at: UnixTime)
}

/// What the connection wants done: the driver does it and feeds the outcome back as an event.
public enum LiveConnectionEffect: Hashable, Sendable {
    /// Open `GET /api/events` (closing any stream still open).
    case openStream
    /// Close the stream.
    case closeStream
    /// Fetch `GET /api/sessions` (the resync after a (re)connect, or the fallback while the stream is down).
    case fetchSessions
    /// Apply a streamed change to the session model (or hand a question to whoever shows it).
    case apply(FleetStreamEvent)
}

/// The app's connection to its default server while on screen: live over server-sent events, fetches as a
/// fallback, and an honest ``status``. A pure reducer: ``handle(_:)`` takes an event, returns effects.
///
/// Rules: foregrounding opens the stream and fetches once (the list may be stale after a suspension); each
/// (re)open fetches once more (events missed while down); a drop fetches at once, then every
/// ``LiveConnectionPolicy/fallbackFetchInterval`` while reconnecting with doubling waits; an open stream
/// silent past ``LiveConnectionPolicy/silenceLimit`` counts as dropped; a 401 stops everything until the
/// settings change; the background closes everything.
public struct LiveConnection: Hashable, Sendable {
    enum Stream: Hashable, Sendable {
        case closed
        case opening
        case open(lastByteAt: UnixTime)
    }

    public let policy: LiveConnectionPolicy
    /// What the list shows about the connection.
    public private(set) var status: ConnectionStatus = .paused
    /// When the server last answered anything (stream bytes or a fetch).
    public private(set) var lastContact: UnixTime?
    var stream: Stream = .closed
    var isForeground = false
    var isRefused = false
    var fetchInFlight = false
    var failedAttempts = 0
    var reconnectAt: UnixTime?
    var nextFetchAt: UnixTime?
    var downSince: UnixTime?
    var downReason = ""

    public init(policy: LiveConnectionPolicy = LiveConnectionPolicy()) { self.policy = policy }

    /// When the driver must send ``LiveConnectionEvent/deadlineReached(at:)`` next, or nil.
    public var nextDeadline: UnixTime? {
        guard isForeground, !isRefused else { return nil }
        var deadlines = [reconnectAt, nextFetchAt].compactMap { $0 }
        if case .open(let lastByteAt) = stream { deadlines.append(lastByteAt + policy.silenceLimit) }
        return deadlines.min()
    }

    /// Applies `event` and returns what to do, in order.
    public mutating func handle(_ event: LiveConnectionEvent) -> [LiveConnectionEffect] {
        switch event {
        case .foregrounded:
            guard !isForeground else { return [] }
            isForeground = true
            return isRefused ? [] : start()
        case .backgrounded:
            guard isForeground else { return [] }
            isForeground = false
            status = .paused
            return stop()
        case .settingsChanged:
            isRefused = false
            let closing = stop()
            guard isForeground else { return closing }
            return closing + start()
        case .streamOpened(let now):
            guard isForeground, stream == .opening else { return [] }
            stream = .open(lastByteAt: now)
            lastContact = now
            failedAttempts = 0
            reconnectAt = nil
            nextFetchAt = nil
            downSince = nil
            status = .live(since: now)
            return fetch()
        case .streamReceived(let outputs, let now):
            guard isForeground, case .open = stream else { return [] }
            stream = .open(lastByteAt: now)
            lastContact = now
            return outputs.compactMap { output in
                if case .event(let event) = output { .apply(FleetStreamEvent(event)) } else { nil }
            }
        case .streamEnded(let error, let now):
            guard isForeground, stream != .closed else { return [] }
            stream = .closed  // the transport ended it: nothing to close
            if case .rejected(401, _)? = error { return refuse(error) }
            return dropped(reason: error?.description ?? "the server closed the event stream", at: now)
        case .fetchAnswered(let error, let now):
            return fetchAnswered(error, at: now)
        case .deadlineReached(let now):
            return deadlineReached(at: now)
        }
    }

    mutating func start() -> [LiveConnectionEffect] {
        stream = .opening
        failedAttempts = 0
        reconnectAt = nil
        nextFetchAt = nil
        downSince = nil
        status = .connecting
        return [.openStream] + fetch()
    }

    mutating func stop() -> [LiveConnectionEffect] {
        let wasOpen = stream != .closed
        stream = .closed
        reconnectAt = nil
        nextFetchAt = nil
        return wasOpen ? [.closeStream] : []
    }

    mutating func fetch() -> [LiveConnectionEffect] {
        guard !fetchInFlight else { return [] }
        fetchInFlight = true
        nextFetchAt = nil
        return [.fetchSessions]
    }

    mutating func refuse(_ error: ControlPlaneError?) -> [LiveConnectionEffect] {
        isRefused = true
        status = .refused(error?.description ?? "the server refused this phone's credential")
        return stop()
    }

    mutating func dropped(reason: String, at now: UnixTime) -> [LiveConnectionEffect] {
        let wasOpen = stream != .closed
        stream = .closed
        failedAttempts += 1
        reconnectAt = now + policy.reconnectDelay(attempt: failedAttempts)
        if downSince == nil { downSince = now }
        downReason = reason
        if case .unreachable = status {} else if case .polling = status {} else {
            status = .reconnecting(since: downSince ?? now, reason: reason)
        }
        return (wasOpen ? [.closeStream] : []) + fetch()
    }

    mutating func fetchAnswered(_ error: ControlPlaneError?, at now: UnixTime) -> [LiveConnectionEffect] {
        fetchInFlight = false
        if case .rejected(401, _)? = error { return refuse(error) }
        if error == nil { lastContact = now }
        guard isForeground, !isRefused else { return [] }
        if case .open = stream { return [] }  // the stream is the truth; a fetch only resynced it
        if stream == .opening, downSince == nil { return [] }  // first connect: the stream's answer decides
        nextFetchAt = now + policy.fallbackFetchInterval
        let since = downSince ?? now
        if let error {
            status = .unreachable(since: since, lastContact: lastContact, reason: error.description)
        } else {
            status = .polling(since: since, lastFetch: now, reason: downReason)
        }
        return []
    }

    mutating func deadlineReached(at now: UnixTime) -> [LiveConnectionEffect] {
        guard isForeground, !isRefused else { return [] }
        if case .open(let lastByteAt) = stream, now >= lastByteAt + policy.silenceLimit {
            let silence = Int(policy.silenceLimit)
            return dropped(reason: "no word from the server for \(silence) s (the network may have changed)", at: now)
        }
        var effects: [LiveConnectionEffect] = []
        if stream == .closed, let due = reconnectAt, now >= due {
            reconnectAt = nil
            stream = .opening
            effects.append(.openStream)
        }
        if let due = nextFetchAt, now >= due { effects += fetch() }
        return effects
    }
}
