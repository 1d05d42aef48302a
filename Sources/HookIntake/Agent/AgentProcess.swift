#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running process as the hook and `lfg host` identify it: its id plus its start time, so a process
/// id the system reused for another program is never mistaken for the agent.
///
/// How the hook finds its agent: Claude Code and Codex run a hook's `command` through a shell
/// (`sh -c "…"`; the shell may also `exec` it), so the hook's parent is either the agent or a shell the
/// agent started. ``agent(ofParent:)`` walks up from the parent past every shell (``shellNames``) and
/// takes the first process that is not one. See docs/hook-fast-path.md.
public struct AgentProcess: Hashable, Sendable {
    /// The process id.
    public var pid: Int32
    /// When it started, in the system's own unit: clock ticks since boot on Linux (`/proc/<pid>/stat`
    /// field 22), microseconds since 1970 on Darwin. Only compared for equality.
    public var startTime: UInt64
    /// Its command name (`comm`, at most 15 characters on Linux), e.g. `claude`, `node`, `codex`.
    public var name: String
    /// Its parent's process id.
    public var parentPID: Int32

    public init(pid: Int32, startTime: UInt64, name: String, parentPID: Int32) {
        self.pid = pid
        self.startTime = startTime
        self.name = name
        self.parentPID = parentPID
    }

    /// Command names of the shells an agent runs hooks through (a login shell's leading `-` is ignored).
    public static let shellNames: Set<String> = ["sh", "dash", "bash", "zsh", "fish", "ksh", "mksh", "ash", "busybox", "env"]

    /// The process `pid` as it runs now, or nil when there is none (or it cannot be read).
    public static func lookup(_ pid: Int32) -> AgentProcess? {
        guard pid > 0 else { return nil }
        #if os(Linux)
            guard let stat = readWholeFile("/proc/\(pid)/stat") else { return nil }
            return parseProcStat(String(decoding: stat, as: UTF8.self))
        #elseif canImport(Darwin)
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
            guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
            let command = withUnsafeBytes(of: info.kp_proc.p_comm) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let started = info.kp_proc.p_starttime
            return AgentProcess(
                pid: pid, startTime: UInt64(started.tv_sec) * 1_000_000 + UInt64(started.tv_usec), name: command,
                parentPID: info.kp_eproc.e_ppid)
        #else
            return nil
        #endif
    }

    /// Reads a Linux `/proc/<pid>/stat` line: `pid (comm) state ppid … starttime …`. The command name
    /// may hold spaces and parentheses, so the fields are counted from its last `)`.
    static func parseProcStat(_ line: String) -> AgentProcess? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close,
            let pid = Int32(line[..<open].trimmingSpaces)
        else { return nil }
        let name = String(line[line.index(after: open)..<close])
        // After ") ": field 3 (state) is index 0, field 4 (ppid) index 1, field 22 (starttime) index 19.
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let parent = Int32(fields[1]), let start = UInt64(fields[19]) else { return nil }
        return AgentProcess(pid: pid, startTime: start, name: name, parentPID: parent)
    }

    /// The agent that runs the hook whose parent is `parentPID`: the first ancestor, from the parent up,
    /// that is not a shell. nil when there is none below pid 1 (a hook run by hand from a terminal finds
    /// the terminal's program instead: whatever started the shell).
    public static func agent(ofParent parentPID: Int32 = getppid()) -> AgentProcess? {
        agent(ofParent: parentPID, lookup: lookup)
    }

    /// ``agent(ofParent:)`` over `lookup` (pid -> process).
    static func agent(ofParent parentPID: Int32, lookup: (Int32) -> AgentProcess?) -> AgentProcess? {
        var pid = parentPID
        for _ in 0..<8 {
            guard pid > 1, let process = lookup(pid) else { return nil }
            var name = Substring(process.name)
            if name.hasPrefix("-") { name = name.dropFirst() }
            guard shellNames.contains(String(name)) else { return process }
            pid = process.parentPID
        }
        return nil
    }

    /// Whether this very process (same id, same start time) still runs.
    public var isRunning: Bool { Self.lookup(pid)?.startTime == startTime }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
