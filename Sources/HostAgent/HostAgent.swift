import FleetCore
import HookIntake

/// The per-machine agent `lfg host` as a reducer: events in, effects out, no I/O.
///
/// Three jobs, all cheap while nothing happens (it sleeps in one `poll`/`kevent` between them):
/// - Heartbeats `PUT /api/hosts/{host}` every ``HostAgentPolicy/heartbeatInterval`` with a TTL, so a
///   laptop that sleeps or goes offline reads `unknown` on the server (never zero, never an ended card).
/// - Delivers the hook inbox at once when a hook rings and when the server answers again after it could
///   not be reached, through `lfg hooks drain` (the hooks' own per-session delivery, never a copy). One
///   drain at a time; rings during a drain start exactly one more after it.
/// - Watches every agent process the hooks recorded. When one is gone, its session ends the way a clean
///   exit ends it: a `SessionEnd` is recorded in the inbox and delivered, so the hook's reducer archives
///   the session. Archived (not deleted) because that is what the agent's own `SessionEnd` does: the
///   session leaves the card at once, the last one to leave ends the card through the end gate's
///   trustworthy zero (as a finished last session does), a resumed session (`--resume`) comes back
///   through its `SessionStart`, and a crash reads exactly like a clean exit everywhere.
///
/// A host outage is never a death: a sleeping laptop's processes do not exit, and a server that cannot
/// be reached only delays delivery; only the process itself being gone ends a session.
public struct HostAgent: Hashable, Sendable {
    /// Whether the server answered the last heartbeat.
    public enum ServerReach: Hashable, Sendable {
        case notAskedYet
        case up
        case unreachable
    }

    /// The delivery child.
    public enum DrainState: Hashable, Sendable {
        case idle
        case running
        /// Running, and rung since it started: run once more when it finishes.
        case runningThenAgain
    }

    public let policy: HostAgentPolicy
    public private(set) var server: ServerReach = .notAskedYet
    public private(set) var drain: DrainState = .idle
    /// Sessions whose agent process is being watched, by session key.
    public private(set) var watched: [String: AgentProcessRecord] = [:]
    /// Sessions whose end is being recorded (their process is gone).
    public private(set) var ending: Set<String> = []
    /// When the next heartbeat is due.
    public private(set) var nextHeartbeatAt: UnixTime = 0
    /// Whether a heartbeat is in flight (no second one is sent meanwhile).
    public private(set) var isHeartbeatInFlight = false

    public init(policy: HostAgentPolicy = .standard) { self.policy = policy }

    public mutating func handle(_ event: HostAgentEvent) -> [HostAgentEffect] {
        switch event {
        case .started:
            isHeartbeatInFlight = true
            return [.sendHeartbeat(ttlSeconds: policy.ttlSeconds), .scanAgents] + startDrain()
        case .timerFired(let now):
            guard !isHeartbeatInFlight, now >= nextHeartbeatAt else { return [.wake(at: nextHeartbeatAt)] }
            isHeartbeatInFlight = true
            return [.sendHeartbeat(ttlSeconds: policy.ttlSeconds)]
        case .heartbeatAnswered(let outcome, let now):
            return heartbeatAnswered(outcome, now: now)
        case .doorbellRang:
            return [.scanAgents] + startDrain()
        case .agentsScanned(let records, _):
            return scanned(records)
        case .agentExited(let key, _):
            guard let process = watched[key], !ending.contains(key) else { return [] }
            ending.insert(key)
            return [
                .log("session \(process.sid): its \(process.agent) process \(process.process.pid) is gone; ending the session"),
                .recordSessionEnd(key: key, process),
            ]
        case .sessionEndRecorded(let key, let problem, _):
            ending.remove(key)
            let process = watched.removeValue(forKey: key)
            if let problem {
                return [.log("session \(process?.sid ?? key): could not record its end (\(problem)); it stays listed")]
            }
            return startDrain()
        case .drainFinished(let succeeded, _):
            let again = drain == .runningThenAgain
            drain = .idle
            // A failed drain (server away) is retried when a heartbeat gets through again, not in a loop.
            guard again else { return succeeded ? [] : [.log("delivery left work pending; retrying when the server answers")] }
            return startDrain()
        }
    }

    private mutating func startDrain() -> [HostAgentEffect] {
        switch drain {
        case .idle:
            drain = .running
            return [.startDrain]
        case .running, .runningThenAgain:
            drain = .runningThenAgain
            return []
        }
    }

    private mutating func heartbeatAnswered(_ outcome: HeartbeatOutcome, now: UnixTime) -> [HostAgentEffect] {
        isHeartbeatInFlight = false
        let before = server
        var effects: [HostAgentEffect] = []
        switch outcome {
        case .accepted:
            server = .up
            nextHeartbeatAt = now + policy.heartbeatInterval
            if before == .unreachable {
                effects.append(.log("server answers again; delivering what the hooks recorded meanwhile"))
                effects += startDrain()
            }
        case .refused(let status):
            server = .unreachable
            nextHeartbeatAt = now + (status == 401 ? policy.heartbeatInterval : policy.retryInterval)
            if before != .unreachable {
                effects.append(.log("the server refused the heartbeat (HTTP \(status))" + (status == 401 ? ": check LFG_AUTH_TOKEN" : "")))
            }
        case .unreachable(let reason):
            server = .unreachable
            nextHeartbeatAt = now + policy.retryInterval
            if before != .unreachable { effects.append(.log("server unreachable (\(reason)); retrying every \(Int(policy.retryInterval)) s")) }
        }
        return effects + [.wake(at: nextHeartbeatAt)]
    }

    private mutating func scanned(_ records: [String: AgentProcessRecord]) -> [HostAgentEffect] {
        var effects: [HostAgentEffect] = []
        for key in watched.keys.sorted() where !ending.contains(key) {
            guard let record = records[key], record.process.pid == watched[key]!.process.pid,
                record.process.startTime == watched[key]!.process.startTime
            else {
                // Ended by itself (its SessionEnd removed the record) or moved to another process.
                watched[key] = nil
                effects.append(.unwatch(key: key))
                continue
            }
        }
        for key in records.keys.sorted() where watched[key] == nil && !ending.contains(key) {
            watched[key] = records[key]!
            effects.append(.watch(key: key, records[key]!))
        }
        return effects
    }
}
