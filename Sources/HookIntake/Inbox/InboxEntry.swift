#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One recorded event in `$LFG_HOME/hook-inbox/<key>/`: the rule for its file name and how it is written.
///
/// Recording takes no lock: the event is written to a hidden temporary file in its session's folder and
/// renamed into place, so a reader sees a whole event or none, and a `kill -9` at any moment loses
/// nothing that was recorded. Names sort in recording order (wall-clock nanoseconds, zero-padded to 20
/// digits, then the recording process's id, padded to 10), the order a session's events are reduced and
/// delivered in. Names starting with `.` are unfinished writes, never events.
public enum InboxEntry {
    /// The inbox folder's name in `$LFG_HOME`.
    public static let folderName = "hook-inbox"

    /// The inbox of `$LFG_HOME` = `home`.
    public static func root(home: String) -> String { home + "/" + folderName }

    /// The entry name for an event recorded at `wallNanoseconds` by process `processID`.
    public static func name(wallNanoseconds: UInt64, processID: Int32) -> String {
        padded(String(wallNanoseconds), to: 20) + "-" + padded(String(processID), to: 10) + ".json"
    }

    /// Whether `name` is a finished entry (not a temporary file of a write under way).
    public static func isEvent(_ name: String) -> Bool { !name.hasPrefix(".") }

    /// Records `contents` as the newest event of session `key` under the inbox `root`; returns the
    /// entry's name.
    ///
    /// The session's folder may vanish between creating it and writing into it (a deliverer removing
    /// an empty folder), so creating and writing are retried a few times.
    @discardableResult
    public static func record(
        _ contents: [UInt8], root: String, key: String, wallNanoseconds: UInt64, processID: Int32 = getpid()
    ) throws(SystemCallError) -> String {
        let name = name(wallNanoseconds: wallNanoseconds, processID: processID)
        let folder = root + "/" + key
        var lastError = SystemCallError("record \(folder)/\(name)", code: EIO)
        for _ in 0..<5 {
            try AtomicFile.makeFolder(folder)
            let temporary = "\(folder)/.\(name).tmp"
            do {
                try AtomicFile.writeNew(contents, to: temporary)
            } catch where error.code == ENOENT {
                lastError = error
                continue
            }
            guard rename(temporary, "\(folder)/\(name)") == 0 else {
                let error = SystemCallError("rename \(temporary)")
                unlink(temporary)
                throw error
            }
            return name
        }
        throw lastError
    }

    /// The wall clock in nanoseconds since 1970 (the entry name's time).
    public static func wallNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func padded(_ digits: String, to width: Int) -> String {
        digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
