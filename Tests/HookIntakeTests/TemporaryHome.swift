#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh private folder under /tmp for one test (short, so socket paths fit), removed at the end.
final class TemporaryHome {
    let path: String

    init() throws {
        var template = Array("/tmp/lfg-intake-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TemporaryHomeError() }
        path = String(cString: made)
    }

    deinit { Self.remove(path) }

    /// Removes `path` and everything under it (best effort: a leftover under /tmp harms nothing).
    static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

struct TemporaryHomeError: Error {}

/// The bytes of the file at `path`, or nil.
func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { return count == 0 ? bytes : nil }
        bytes += chunk[0..<count]
    }
}
