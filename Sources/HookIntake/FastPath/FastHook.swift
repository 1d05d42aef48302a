import FleetCore

/// What `lfg-hook` (the hook's cheap start) does with one event: record it, ring `lfg host`, and say
/// what is left to do. Pure apart from its injected edges, so tests run it without processes.
///
/// - Recorded and a host heard the ring: done; the host delivers it.
/// - Recorded and no host listens: ``Next/deliver(key:)`` — `lfg hook --deliver-session KEY` takes
///   the session's turn and delivers it (the agent waits for that as it always did).
/// - An event that may hold the agent for the phone's answer (``HookEvent/mayWaitForPhone``, for an
///   agent that answers from the phone), an input that is not an event, or an inbox it cannot write:
///   ``Next/fullPath`` — the whole input goes to `lfg hook`, which records, delivers, asks and explains.
public struct FastHook: Sendable {
    public var home: String
    public var host: HostID
    public var agent: any AgentAdapter
    /// Rings the host for a session key; true when one listens (``HostDoorbell/ring(sessionKey:)``).
    public var ring: @Sendable (String) -> Bool
    /// The agent process running the hook (``AgentProcess/agent(ofParent:)``), looked up once per event.
    public var agentProcess: @Sendable () -> AgentProcess?
    /// Wall clock in nanoseconds since 1970.
    public var wallNanoseconds: @Sendable () -> UInt64
    /// This process's id (part of the entry name).
    public var processID: Int32

    public init(
        home: String, host: HostID, agent: any AgentAdapter, ring: @escaping @Sendable (String) -> Bool,
        agentProcess: @escaping @Sendable () -> AgentProcess?, wallNanoseconds: @escaping @Sendable () -> UInt64,
        processID: Int32
    ) {
        self.home = home
        self.host = host
        self.agent = agent
        self.ring = ring
        self.agentProcess = agentProcess
        self.wallNanoseconds = wallNanoseconds
        self.processID = processID
    }

    /// What ``handle(_:)`` did.
    public struct Outcome: Hashable, Sendable {
        /// What is left to do.
        public var next: Next
        /// What went wrong without costing the event (the agent record could not be kept), for stderr.
        public var problems: [String]

        public init(next: Next, problems: [String] = []) {
            self.next = next
            self.problems = problems
        }
    }

    /// What remains after ``handle(_:)``.
    public enum Next: Hashable, Sendable {
        /// Recorded, and the host was rung: nothing left.
        case done(key: String)
        /// Recorded, no host listens: deliver session `key` now.
        case deliver(key: String)
        /// Not recorded: hand the whole input to `lfg hook`, for `reason`.
        case fullPath(reason: String)
    }

    /// Records one hook input (the bytes on stdin) and rings the host.
    ///
    /// Also keeps the session's ``AgentProcessRecord`` (written when its process is new, removed at
    /// `SessionEnd`); a failure there never costs the event (the host just cannot watch that session).
    public func handle(_ input: [UInt8]) -> Outcome {
        let event: HookEvent
        do {
            event = try agent.event(from: JSONParser.parse(bytes: input))
        } catch {
            return Outcome(next: .fullPath(reason: "unreadable input"))
        }
        if agent.answersFromPhone, event.mayWaitForPhone { return Outcome(next: .fullPath(reason: "may wait for the phone")) }
        let key = SessionKey.of(event.sessionID)
        let nanoseconds = wallNanoseconds()
        let seconds = UnixTime(nanoseconds / 1_000_000) / 1000
        let process = agentProcess()
        let record = RecordedEvent(event: event, host: host, recordedAt: seconds, agentPID: process?.pid)
        do {
            try InboxEntry.record(
                Array(record.encoded().utf8), root: InboxEntry.root(home: home), key: key, wallNanoseconds: nanoseconds,
                processID: processID)
        } catch {
            return Outcome(next: .fullPath(reason: "\(error)"))
        }
        var problems: [String] = []
        do {
            try AgentProcessRecord.keep(after: event, key: key, host: host, agent: agent.name, process: process, seenAt: seconds, home: home)
        } catch {
            problems.append("could not keep the agent process record for lfg host (\(error))")
        }
        return Outcome(next: ring(key) ? .done(key: key) : .deliver(key: key), problems: problems)
    }
}
