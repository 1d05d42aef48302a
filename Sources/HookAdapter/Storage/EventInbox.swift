#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Where hook calls record their events before anything else: one folder per session with pending
/// work under `$LFG_HOME/hook-inbox/`, one file per event (``InboxEntry`` defines the names and the
/// write; ``RecordedEvent`` the contents).
///
/// A session's folder exists while it has work pending (events not yet reduced, or reports not yet
/// delivered), so finding the sessions that need delivering is one directory listing.
public struct EventInbox: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Hidden temporary files older than this (seconds) belong to a recorder killed mid-write.
    static let abandonedAfter: Double = 60

    func folder(_ key: String) -> URL { root.appendingPathComponent(key, isDirectory: true) }

    /// Records `contents` as the newest event of the session `key`; returns the entry's name
    /// (``InboxEntry/record(_:root:key:wallNanoseconds:processID:)``).
    @discardableResult
    public func record(_ contents: Data, key: String, wallNanoseconds: UInt64, processID: Int32 = getpid()) throws -> String {
        try InboxEntry.record(Array(contents), root: root.path, key: key, wallNanoseconds: wallNanoseconds, processID: processID)
    }

    /// The sessions (folder names) with work pending, in no particular order.
    public func sessionKeys() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// The recorded events of `key` not yet taken, oldest first.
    func entries(_ key: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(key).path)) ?? []
        return names.filter(InboxEntry.isEvent).sorted()
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
        for name in names where !InboxEntry.isEvent(name) {
            let path = folder.appendingPathComponent(name).path
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.timeIntervalSince1970
            if let modified, now - modified > Self.abandonedAfter { unlink(path) }
        }
        rmdir(folder.path)
    }
}
