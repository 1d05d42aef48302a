import FleetCore
import Foundation

/// One `lfg hook` call: record the event, then deliver its session's pending reports.
///
/// Recording comes first and takes no lock (``EventInbox``), so no burst of hooks can make an event
/// wait or get lost. Delivery is per session: a hook takes its own session's turn when it is free
/// and leaves at once when another process has it (that process takes this event too). With time to
/// spare it helps sessions whose last hook ran out of time.
public struct HookRunner: Sendable {
    /// The hard bound of one hook call in seconds: well under a second even when the server hangs.
    public static let timeBudget = 0.5
    /// Session records untouched this long (seconds) are deleted when a session starts.
    public static let stateLifetime: UnixTime = 30 * 24 * 3600

    public var files: HookFiles
    public var host: HostID
    public var delivery: any ReportDelivery
    /// Unix seconds now (the slow-server pause is kept in wall time because it spans processes).
    public var wallClock: @Sendable () -> UnixTime
    /// Seconds one delivery request may take (see ``SpoolDrainer/requestTimeout``).
    public var requestTimeout: Double
    /// ``TokenFingerprint`` of the token the delivery carries.
    public var tokenFingerprint: String
    /// The agent whose hook input this reads.
    public var agent: any AgentAdapter
    /// The agent process running this hook (``AgentProcess/agent(ofParent:)``), recorded with the event.
    public var agentProcess: @Sendable () -> AgentProcess? = { nil }
    /// Rings `lfg host` for a session key (``HostDoorbell/ring(sessionKey:)``), so it reads a changed agent
    /// process record at once; true when one listens.
    public var ringHost: @Sendable (String) -> Bool = { _ in false }

    public init(
        files: HookFiles, host: HostID = .local, delivery: any ReportDelivery,
        requestTimeout: Double = SpoolDrainer.requestTimeout, tokenFingerprint: String = TokenFingerprint.of(nil),
        agent: any AgentAdapter = AgentAdapters.default, wallClock: @escaping @Sendable () -> UnixTime
    ) {
        self.agent = agent
        self.files = files
        self.host = host
        self.delivery = delivery
        self.requestTimeout = requestTimeout
        self.tokenFingerprint = tokenFingerprint
        self.wallClock = wallClock
    }

    /// What one call did.
    public struct Summary: Sendable {
        /// The session key of the event recorded, or nil when it was not recorded.
        public var recorded: String?
        /// This session's delivery.
        public var drain = SpoolDrainer.Result()
        /// Other sessions this call helped (stranded ones).
        public var helped = SpoolDrainer.Result()
        /// Why the event was not recorded, when it was not (bad input, unwritable `$LFG_HOME`).
        public var problem: String?
        /// Why the session's agent process record could not be kept (the event itself was recorded;
        /// `lfg host` just cannot watch that session's process).
        public var agentRecordProblem: String?

        init(recorded: String? = nil, problem: String? = nil) {
            self.recorded = recorded
            self.problem = problem
        }
    }

    /// Handles one hook input (the JSON text on stdin) within `deadline`. Never throws.
    ///
    /// - Parameter preparing: sees the decoded event before it is recorded, and may change it (`lfg hook`
    ///   attaches the question it asks the phone there).
    public func handle(
        _ input: String, deadline: HookDeadline, preparing: (inout HookEvent) -> Void = { _ in }
    ) async -> Summary {
        var summary = Summary()
        do {
            try files.prepare()
        } catch {
            summary.problem = "cannot write \(files.home.path) (\(error.localizedDescription)); set LFG_HOME to a writable folder"
            return summary
        }
        let now = wallClock()
        do {
            var event = try agent.event(from: input)
            preparing(&event)
            let process = agentProcess()
            let key = try record(event, process: process, now: now)
            summary.recorded = key
            summary.agentRecordProblem = keepAgentRecord(after: event, key: key, process: process, now: now)
        } catch let error as HookInputError {
            summary.problem = error.message
        } catch {
            summary.problem = "could not record the event in \(files.inbox.root.path): \(error)"
        }
        return await deliver(summary.recorded, deadline: deadline, now: now, into: summary)
    }

    /// Delivers session `key`, recorded earlier by `lfg-hook` (which found no host listening), then
    /// helps stranded sessions as ``handle(_:deadline:preparing:)`` does.
    public func deliverRecorded(_ key: String, deadline: HookDeadline) async -> Summary {
        do {
            try files.prepare()
        } catch {
            return Summary(problem: "cannot write \(files.home.path) (\(error.localizedDescription)); set LFG_HOME to a writable folder")
        }
        return await deliver(key, deadline: deadline, now: wallClock(), into: Summary(recorded: key))
    }

    private func deliver(_ key: String?, deadline: HookDeadline, now: UnixTime, into summary: Summary) async -> Summary {
        var summary = summary
        let deliverer = SessionDeliverer(
            files: files, delivery: delivery, requestTimeout: requestTimeout, now: now, tokenFingerprint: tokenFingerprint)
        if let key {
            summary.drain = await deliverer.deliver(key, deadline: deadline)
        }
        // Only with half the budget left: helping is a courtesy, never a reason to be slow.
        if summary.drain.stoppedBecause == nil || summary.drain.stoppedBecause == .anotherProcessDelivers,
            deadline.remainingSeconds > requestTimeout / 2
        {
            summary.helped = await SpoolDrainer.helpStranded(deliverer, excluding: key, deadline: deadline, now: now)
        }
        return summary
    }

    /// Records `event` in its session's inbox; returns the session key.
    func record(_ event: HookEvent, process: AgentProcess?, now: UnixTime) throws -> String {
        let key = SessionKey.of(event.sessionID)
        let line = RecordedEvent(event: event, host: host, recordedAt: now, agentPID: process?.pid).encoded()
        try files.inbox.record(Data(line.utf8), key: key, wallNanoseconds: InboxEntry.wallNanoseconds())
        if event.name == .sessionStart { files.pruneRecords(untouchedSince: now - Self.stateLifetime) }
        return key
    }

    /// Keeps the session's agent process record as `lfg-hook` does (``AgentProcessRecord/keep(after:key:host:agent:process:seenAt:home:)``),
    /// so `lfg host` watches the agent whichever hook path ran, and rings the host when the record changed
    /// (this path delivers by itself and would not ring otherwise). Returns what went wrong, or nil.
    func keepAgentRecord(after event: HookEvent, key: String, process: AgentProcess?, now: UnixTime) -> String? {
        do {
            let changed = try AgentProcessRecord.keep(
                after: event, key: key, host: host, agent: agent.name, process: process, seenAt: now, home: files.home.path)
            if changed { _ = ringHost(key) }
            return nil
        } catch {
            return "could not keep the agent process record for lfg host (\(error))"
        }
    }
}
