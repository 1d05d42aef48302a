#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `lfg-hook` hands an event to the full `lfg hook`: it replaces itself with the `lfg` executable
/// (`execv`, same process: the agent sees one hook, and the time budget still counts from this
/// process's start).
public enum FullHookHandOff {
    /// The `lfg` executable beside `lfg-hook` (`argument0` resolved through symlinks), or nil.
    public static func lfgExecutable(besides argument0: String) -> String? {
        var path = argument0
        if !path.contains("/") {
            guard let found = searchPath(path) else { return nil }
            path = found
        }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let full = String(cString: resolved)
        let folder = String(full.reversed().drop { $0 != "/" }.reversed())
        let lfg = folder + "lfg"
        return access(lfg, X_OK) == 0 ? lfg : nil
    }

    /// `name` found on `$PATH`, or nil.
    static func searchPath(_ name: String) -> String? {
        guard let value = getenv("PATH") else { return nil }
        for folder in String(cString: value).split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
            return "\(folder)/\(name)"
        }
        return nil
    }

    /// Replaces this process with `lfg` run with `arguments`, reading `input` on its stdin (nil: an empty
    /// stdin). Returns only when that failed, with the reason.
    public static func exec(lfg: String, arguments: [String], input: [UInt8]?, home: String) -> String {
        guard replaceStandardInput(with: input ?? [], home: home) else { return "cannot pass the event on: \(SystemCallError("stdin"))" }
        var argv: [UnsafeMutablePointer<CChar>?] = ([lfg] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(lfg, &argv)
        return "\(SystemCallError("exec \(lfg)"))"
    }

    /// Points stdin at a private unlinked file holding `input`, rewound (no pipe: a large event could
    /// fill one before `lfg` reads it).
    static func replaceStandardInput(with input: [UInt8], home: String) -> Bool {
        guard (try? AtomicFile.makeFolder(home)) != nil else { return false }
        let path = "\(home)/.hook-input-\(getpid())"
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return false }
        unlink(path)
        var offset = 0
        while offset < input.count {
            let written = input.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                close(descriptor)
                return false
            }
            offset += written
        }
        guard lseek(descriptor, 0, SEEK_SET) == 0, dup2(descriptor, 0) == 0 else {
            close(descriptor)
            return false
        }
        close(descriptor)
        return true
    }
}
