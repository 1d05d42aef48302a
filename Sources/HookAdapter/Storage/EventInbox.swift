#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Where hook calls record their events before anything else: one folder per session with pending
/// work under `$LFG_HOME/hook-inbox/`, one file per event.
///
/// Recording takes no lock: the event is written to a hidden temporary file in its session's folder
/// and renamed into place, so a reader sees a whole event or none, and a `kill -9` at any moment
/// loses nothing that was recorded. File names sort in recording order (wall-clock nanoseconds, then
/// the process id), which is the order a session's events are reduced and delivered in.
///
/// A session's folder exists while it has work pending (events not yet reduced, or reports not yet
/// delivered), so finding the sessions that need delivering is one directory listing.
public struct EventInbox: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Hidden temporary files older than this (seconds) belong to a recorder killed mid-write.
    static let abandonedAfter: Double = 60

    func folder(_ key: String) -> URL { root.appendingPathComponent(key, isDirectory: true) }

    /// Records `contents` as the newest event of the session `key`; returns the entry's name.
    ///
    /// The folder may vanish between creating it and writing into it (a deliverer removing an empty
    /// folder), so creating and writing are retried a few times.
    @discardableResult
    public func record(_ contents: Data, key: String, wallNanoseconds: UInt64, processID: Int32 = getpid()) throws -> String {
        let name = String(format: "%020llu-%010d.json", wallNanoseconds, processID)
        var lastError: any Error = CocoaError(.fileWriteUnknown)
        for _ in 0..<5 {
            let folder = folder(key)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = folder.appendingPathComponent(".\(name).tmp")
            do {
                try Self.writeNew(contents, to: temporary.path)
            } catch let error as POSIXError where error.code == .ENOENT {
                lastError = error
                continue
            }
            guard rename(temporary.path, folder.appendingPathComponent(name).path) == 0 else {
                let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                unlink(temporary.path)
                throw error
            }
            return name
        }
        throw lastError
    }

    /// Writes `contents` to a new file at `path`, mode 0600.
    static func writeNew(_ contents: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }

    /// The sessions (folder names) with work pending, in no particular order.
    public func sessionKeys() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// The recorded events of `key` not yet taken, oldest first.
    func entries(_ key: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(key).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    func read(_ key: String, _ entry: String) -> Data? {
        FileManager.default.contents(atPath: folder(key).appendingPathComponent(entry).path)
    }

    /// Deletes taken entries (already reduced into the session's stored state).
    func remove(_ key: String, _ entries: [String]) {
        for entry in entries { unlink(folder(key).appendingPathComponent(entry).path) }
    }

    /// Removes the folder of `key` when it holds nothing (a recorder writing into it keeps it), and
    /// the leftovers of recorders killed mid-write.
    func removeFolderIfDone(_ key: String, now: Double) {
        let folder = folder(key)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(".") {
            let path = folder.appendingPathComponent(name).path
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.timeIntervalSince1970
            if let modified, now - modified > Self.abandonedAfter { unlink(path) }
        }
        rmdir(folder.path)
    }
}
