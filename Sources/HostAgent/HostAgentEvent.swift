import FleetCore
import HookIntake

/// What happened to the host agent; each carries its own time (Unix seconds).
public enum HostAgentEvent: Hashable, Sendable {
    /// The agent started.
    case started(at: UnixTime)
    /// The timer the last ``HostAgentEffect/wake(at:)`` asked for fired (or the loop woke anyway).
    case timerFired(at: UnixTime)
    /// The server answered a heartbeat (or could not be reached).
    case heartbeatAnswered(HeartbeatOutcome, at: UnixTime)
    /// A hook rang the doorbell: something new is in the inbox.
    case doorbellRang(at: UnixTime)
    /// The hooks' agent process records as they are on disk now, by session key.
    case agentsScanned([String: AgentProcessRecord], at: UnixTime)
    /// The process of session `key` is gone (exited, killed, or no longer the recorded one).
    case agentExited(key: String, at: UnixTime)
    /// The end of session `key` is in the inbox (or could not be written: `problem`).
    case sessionEndRecorded(key: String, problem: String?, at: UnixTime)
    /// The delivery child (`lfg hooks drain`) finished.
    case drainFinished(succeeded: Bool, at: UnixTime)
}

/// How a heartbeat went.
public enum HeartbeatOutcome: Hashable, Sendable {
    /// 2xx: the server knows the host is up.
    case accepted
    /// An HTTP answer that is not 2xx (401: the token is wrong).
    case refused(status: Int)
    /// No answer: connection refused, timed out, name not resolved.
    case unreachable(String)
}

/// What the host agent asks its edges to do.
public enum HostAgentEffect: Hashable, Sendable {
    /// `PUT /api/hosts/{host}` with `{"ttlSeconds": N}`, then feed ``HostAgentEvent/heartbeatAnswered(_:at:)``.
    case sendHeartbeat(ttlSeconds: Double)
    /// Read the agent process records, then feed ``HostAgentEvent/agentsScanned(_:at:)``.
    case scanAgents
    /// Start watching session `key`'s process; when it is gone (or already is), feed ``HostAgentEvent/agentExited(key:at:)``.
    case watch(key: String, AgentProcessRecord)
    /// Stop watching session `key` (it ended by itself, or moved to a new process).
    case unwatch(key: String)
    /// Record the session's end in the hook inbox, as its agent's own `SessionEnd` would have been, and
    /// remove its process record; then feed ``HostAgentEvent/sessionEndRecorded(key:problem:at:)``.
    case recordSessionEnd(key: String, AgentProcessRecord)
    /// Deliver every pending hook event and report now (one `lfg hooks drain` child); then feed
    /// ``HostAgentEvent/drainFinished(succeeded:at:)``.
    case startDrain
    /// Feed ``HostAgentEvent/timerFired(at:)`` at this time (replaces any earlier wake).
    case wake(at: UnixTime)
    /// One line for the agent's log (stderr: the journal or launchd's log file).
    case log(String)
}
