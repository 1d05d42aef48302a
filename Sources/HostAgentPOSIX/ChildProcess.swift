#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starting and reaping the children that do the heavy work (`lfg hooks drain`), so the resident
/// process never loads Foundation or the hooks' delivery code.
public enum ChildProcess {
    /// Starts `arguments[0]` (an absolute path) with `arguments`, stdin from /dev/null, stdout to
    /// /dev/null, stderr inherited (the host's log). Returns its pid, or the error number.
    public static func spawn(_ arguments: [String], environment: [String]? = nil) -> Result<Int32, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let code: Int32
        if let environment {
            let envp = environment.map { strdup($0) } + [nil]
            defer { envp.forEach { free($0) } }
            code = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        } else {
            code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        }
        return code == 0 ? .success(pid) : .failure(SpawnError(path: arguments[0], code: code))
    }

    /// Reaps `pid` if it has exited: its exit status (a signal counts as failure), or nil while it runs.
    public static func reap(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result < 0, errno == EINTR { continue }
            guard result == pid else { return result < 0 ? -1 : nil }
            // WIFEXITED / WEXITSTATUS by hand: the macros are not imported.
            return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        }
    }

    public struct SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { "cannot start \(path): \(String(cString: strerror(code)))" }
    }
}
