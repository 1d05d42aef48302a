internal import CHostShims
import HookIntake

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells the event loop when watched processes exit, with no polling: on Linux one pidfd per process
/// (`pidfd_open`, readable when it exits); on macOS one kqueue with an `EVFILT_PROC`/`NOTE_EXIT` filter
/// per process (the kqueue itself is readable when any fires). Either way the loop just adds
/// ``descriptors`` to its one `poll`.
public final class ProcessExitWatch {
    /// The start time of a running process, or nil when there is none (injected: tests, and the
    /// hooks' own ``AgentProcess`` reader in production).
    public typealias StartTimeLookup = (Int32) -> UInt64?

    private let startTime: StartTimeLookup
    #if os(Linux)
        private var pidfds: [String: Int32] = [:]
    #else
        private let queue: Int32
        private var pids: [String: Int32] = [:]
    #endif

    public init(startTime: @escaping StartTimeLookup) {
        self.startTime = startTime
        #if !os(Linux)
            queue = kqueue()
        #endif
    }

    deinit {
        #if os(Linux)
            for fd in pidfds.values { close(fd) }
        #else
            close(queue)
        #endif
    }

    /// The descriptors to poll for readability.
    public var descriptors: [Int32] {
        #if os(Linux)
            Array(pidfds.values)
        #else
            [queue]
        #endif
    }

    /// Starts watching `process` under `key`. Returns false when it is already gone: no such process, or
    /// its id now belongs to another program (a different start time). The check runs after the watch
    /// is in place, so an exit between the two is never missed.
    public func watch(_ key: String, _ process: AgentProcess) -> Bool {
        unwatch(key)
        #if os(Linux)
            let fd = lfg_host_pidfd_open(process.pid)
            guard fd >= 0 else { return false }
            guard startTime(process.pid) == process.startTime else {
                close(fd)
                return false
            }
            pidfds[key] = fd
            return true
        #else
            var change = kevent(
                ident: UInt(process.pid), filter: Int16(EVFILT_PROC), flags: UInt16(EV_ADD | EV_ONESHOT),
                fflags: NOTE_EXIT, data: 0, udata: nil)
            guard kevent(queue, &change, 1, nil, 0, nil) == 0, startTime(process.pid) == process.startTime else { return false }
            pids[key] = process.pid
            return true
        #endif
    }

    /// Stops watching `key`.
    public func unwatch(_ key: String) {
        #if os(Linux)
            if let fd = pidfds.removeValue(forKey: key) { close(fd) }
        #else
            pids[key] = nil  // a stale NOTE_EXIT for it is ignored in exited(ready:)
        #endif
    }

    /// The keys whose processes exited, given the descriptors `poll` found readable; they are no longer watched.
    public func exited(ready: Set<Int32>) -> [String] {
        #if os(Linux)
            let gone = pidfds.filter { ready.contains($0.value) }.map(\.key).sorted()
            for key in gone { unwatch(key) }
            return gone
        #else
            guard ready.contains(queue) else { return [] }
            var events = [kevent](repeating: kevent(), count: 64)
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            let count = kevent(queue, nil, 0, &events, Int32(events.count), &zero)
            guard count > 0 else { return [] }
            let exitedPids = Set(events.prefix(Int(count)).map { Int32($0.ident) })
            let gone = pids.filter { exitedPids.contains($0.value) }.map(\.key).sorted()
            for key in gone { pids[key] = nil }
            return gone
        #endif
    }
}
