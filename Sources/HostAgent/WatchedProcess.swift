import FleetCore

/// An agent process one session runs in, as the hook recorded it (`$LFG_HOME/hook-agents/<key>.json`):
/// its id plus its start time, so a process id the system gave to another program is never taken for it.
public struct WatchedProcess: Hashable, Sendable {
    /// The session id.
    public var sid: String
    /// The host name the session's reports carry.
    public var host: HostID
    /// The adapter that read its hooks (`claude`, `codex`).
    public var agent: String
    public var pid: Int32
    /// The process's start time in the system's own unit (only compared for equality).
    public var startTime: UInt64

    public init(sid: String, host: HostID, agent: String, pid: Int32, startTime: UInt64) {
        self.sid = sid
        self.host = host
        self.agent = agent
        self.pid = pid
        self.startTime = startTime
    }

    /// Whether `other` is the same process (a session moved to a new agent process is watched anew).
    public func isSameProcess(as other: WatchedProcess) -> Bool { pid == other.pid && startTime == other.startTime }
}
