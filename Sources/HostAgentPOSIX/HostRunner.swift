internal import CHostShims
import FleetCore
import HookIntake
import HostAgent

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The host agent's event loop: one `poll` over the doorbell, the watched agent processes and the
/// delivery child, with the next heartbeat as its timeout. It feeds what happened to ``HostAgent`` and
/// carries out what it answers. Nothing runs between events: idle, the process sleeps in `poll`.
public final class HostRunner {
    public struct Settings: Sendable {
        /// `$LFG_HOME`.
        public var home: String
        /// The `lfg` executable that runs `lfg hooks drain`.
        public var lfgExecutable: String
        public var policy: HostAgentPolicy

        public init(home: String, lfgExecutable: String, policy: HostAgentPolicy = .standard) {
            self.home = home
            self.lfgExecutable = lfgExecutable
            self.policy = policy
        }
    }

    /// The hooks' side of the machine, as the loop needs it (the hooks' own types behind it: the doorbell
    /// listener, the agent process records, the inbox), so this loop holds no copy of their formats.
    public struct HookFiles {
        /// Readable when a hook rang.
        public var doorbellDescriptor: Int32
        /// Reads every ring pending (the loop delivers every session with work, not only those rung).
        public var takeRings: () -> Void
        /// The agent process records on disk now, by session key.
        public var agentRecords: () -> [String: AgentProcessRecord]
        /// A running process's start time, or nil when there is none.
        public var startTime: ProcessExitWatch.StartTimeLookup
        /// Records session `key`'s end in the inbox as its agent's `SessionEnd` would be, and removes its
        /// process record; returns what went wrong, or nil.
        public var recordSessionEnd: (String, AgentProcessRecord) -> String?

        public init(
            doorbellDescriptor: Int32, takeRings: @escaping () -> Void, agentRecords: @escaping () -> [String: AgentProcessRecord],
            startTime: @escaping ProcessExitWatch.StartTimeLookup, recordSessionEnd: @escaping (String, AgentProcessRecord) -> String?
        ) {
            self.doorbellDescriptor = doorbellDescriptor
            self.takeRings = takeRings
            self.agentRecords = agentRecords
            self.startTime = startTime
            self.recordSessionEnd = recordSessionEnd
        }
    }

    private let settings: Settings
    private let heartbeat: any HeartbeatSender
    private let hooks: HookFiles
    private let exits: ProcessExitWatch
    private let log: (String) -> Void
    private var agent: HostAgent
    private var queue: [HostAgentEvent] = []
    private var wakeAt: UnixTime = 0
    /// The running `lfg hooks drain` and the descriptor that reads when it exits (-1 without pidfds).
    private var drainChild: (pid: Int32, exitFD: Int32)?

    public init(settings: Settings, heartbeat: any HeartbeatSender, hooks: HookFiles, log: @escaping (String) -> Void) {
        self.settings = settings
        self.heartbeat = heartbeat
        self.hooks = hooks
        exits = ProcessExitWatch(startTime: hooks.startTime)
        self.log = log
        agent = HostAgent(policy: settings.policy)
    }

    /// Runs until `shouldStop` says so (checked after every wake; a signal interrupts the poll).
    public func run(shouldStop: () -> Bool) {
        feed(.started(at: Self.now()))
        while !shouldStop() {
            var descriptors = [hooks.doorbellDescriptor] + exits.descriptors
            if let drainChild, drainChild.exitFD >= 0 { descriptors.append(drainChild.exitFD) }
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            // Without a pidfd for the child (an old kernel), look at it every second while it runs.
            let cap: Double = drainChild.map { $0.exitFD < 0 } == true ? 1 : 3600
            let timeout = Int32(max(0, min(wakeAt - Self.now(), cap)) * 1000)
            let ready = poll(&polled, nfds_t(polled.count), timeout)
            if ready < 0, errno != EINTR { log("poll failed: \(String(cString: strerror(errno)))") }
            let readable = Set(polled.filter { $0.revents != 0 }.map(\.fd))
            let now = Self.now()
            if readable.contains(hooks.doorbellDescriptor) {
                hooks.takeRings()
                feed(.doorbellRang(at: now))
            }
            for key in exits.exited(ready: readable) { feed(.agentExited(key: key, at: now)) }
            if let child = drainChild, child.exitFD < 0 || readable.contains(child.exitFD), let status = ChildProcess.reap(child.pid) {
                if child.exitFD >= 0 { close(child.exitFD) }
                drainChild = nil
                feed(.drainFinished(succeeded: status == 0, at: now))
            }
            if now >= wakeAt { feed(.timerFired(at: now)) }
        }
    }

    private func feed(_ event: HostAgentEvent) {
        queue.append(event)
        while !queue.isEmpty {
            let next = queue.removeFirst()
            for effect in agent.handle(next) { perform(effect) }
        }
    }

    private func perform(_ effect: HostAgentEffect) {
        switch effect {
        case .sendHeartbeat(let ttl):
            queue.append(.heartbeatAnswered(heartbeat.send(ttlSeconds: ttl), at: Self.now()))
        case .scanAgents:
            queue.append(.agentsScanned(hooks.agentRecords(), at: Self.now()))
        case .watch(let key, let process):
            if !exits.watch(key, process.process) { queue.append(.agentExited(key: key, at: Self.now())) }
        case .unwatch(let key):
            exits.unwatch(key)
        case .recordSessionEnd(let key, let process):
            queue.append(.sessionEndRecorded(key: key, problem: hooks.recordSessionEnd(key, process), at: Self.now()))
        case .startDrain:
            startDrain()
        case .wake(let time):
            wakeAt = time
        case .log(let line):
            log(line)
        }
    }

    private func startDrain() {
        switch ChildProcess.spawn([settings.lfgExecutable, "hooks", "drain", "--timeout", "30"]) {
        case .success(let pid):
            drainChild = (pid, lfg_host_pidfd_open(pid))
        case .failure(let error):
            log("\(error)")
            queue.append(.drainFinished(succeeded: false, at: Self.now()))
        }
    }

    /// The wall clock in Unix seconds (the only clock the loop reads).
    static func now() -> UnixTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UnixTime(time.tv_sec) + UnixTime(time.tv_nsec) / 1_000_000_000
    }
}
