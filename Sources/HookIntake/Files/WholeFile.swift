#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the whole file at `path` (nil when it cannot be opened or read).
func readWholeFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return readAll(descriptor, limit: limit)
}

/// Reads `descriptor` to its end, at most `limit` bytes (nil on a read error).
func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while bytes.count < limit {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min($0.count, limit - bytes.count)) }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

/// Private files written whole: through a temporary name renamed into place, so a reader (or a
/// `kill -9` at any moment) sees the old contents or the new, never a part.
public enum AtomicFile {
    /// Writes `bytes` to `path` (mode 0600) through `temporary` (a name in the same folder that no
    /// other writer uses), then renames it into place.
    public static func replace(_ path: String, with bytes: [UInt8], through temporary: String) throws(SystemCallError) {
        try writeNew(bytes, to: temporary)
        guard rename(temporary, path) == 0 else {
            let error = SystemCallError("rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
    }

    /// Writes `bytes` to a new (or truncated) file at `path`, mode 0600.
    public static func writeNew(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemCallError("open \(path)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("write \(path)")
            }
            offset += written
        }
    }

    /// Creates the folder `path` (mode 0700) and any missing parents; an existing folder is fine.
    public static func makeFolder(_ path: String) throws(SystemCallError) {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw SystemCallError("mkdir \(path)") }
        let parent = String(path.reversed().drop { $0 != "/" }.dropFirst().reversed())
        guard !parent.isEmpty, parent != path else { throw SystemCallError("mkdir \(path)", code: ENOENT) }
        try makeFolder(parent)
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw SystemCallError("mkdir \(path)") }
    }
}
