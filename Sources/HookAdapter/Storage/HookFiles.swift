import FleetCore
import Foundation
import HookIntake

/// The hook's files in `$LFG_HOME`:
///
/// - `hook-inbox/<key>/`: events recorded and not yet reduced (see ``EventInbox``); a session's
///   folder exists while it has anything pending.
/// - `hook-sessions/<key>.json`: one ``SessionRecord`` per session (state, undelivered reports);
///   `hook-sessions/<key>.lock`: held by the one process delivering that session right now.
/// - `hook-paused-until`: after a request timed out, when hooks may try the server again.
/// - `hook-refused-token`: a fingerprint of the token the server answered 401 (never the token).
/// - `hook-spool.jsonl`: the spool of earlier versions, delivered once and removed.
///
/// `<key>` is the session id when it is plain (Claude's are UUIDs), hex-encoded otherwise.
/// Every file is 0600 and every folder 0700.
public struct HookFiles: Sendable {
    public let home: URL

    public init(home: URL) { self.home = home }

    var sessionsFolder: URL { home.appendingPathComponent("hook-sessions", isDirectory: true) }
    /// The event inbox.
    public var inbox: EventInbox { EventInbox(root: URL(fileURLWithPath: InboxEntry.root(home: home.path), isDirectory: true)) }
    /// The spool file of earlier versions.
    public var legacySpool: URL { home.appendingPathComponent("hook-spool.jsonl") }
    var pauseFile: URL { home.appendingPathComponent("hook-paused-until") }
    var refusedTokenFile: URL { home.appendingPathComponent("hook-refused-token") }

    /// Creates `$LFG_HOME` and the hook's folders (0700) when missing.
    func prepare() throws {
        for folder in [sessionsFolder, inbox.root] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    /// A session id as a file name (``SessionKey``).
    public static func key(for sid: String) -> String { SessionKey.of(sid) }

    // MARK: Session records

    func recordFile(_ key: String) -> URL { sessionsFolder.appendingPathComponent(key + ".json") }
    func sessionLock(_ key: String) -> String { sessionsFolder.appendingPathComponent(key + ".lock").path }

    /// The stored record of `key`; a fresh one when none. A record from an earlier version (a bare
    /// state) is read as that state with nothing pending.
    public func loadRecord(_ key: String) -> SessionRecord {
        guard let data = try? Data(contentsOf: recordFile(key)) else { return SessionRecord() }
        if let record = try? JSONDecoder().decode(SessionRecord.self, from: data) { return record }
        return SessionRecord(state: try? JSONDecoder().decode(HookSessionState.self, from: data))
    }

    public func saveRecord(_ record: SessionRecord, for key: String) throws {
        try Self.writeAtomically(JSONEncoder().encode(record), to: recordFile(key))
    }

    /// Every report not yet delivered, session by session (each session's oldest first).
    public func pendingReports() -> [SpooledReport] {
        inbox.sessionKeys().sorted().flatMap { loadRecord($0).outbox }
    }

    /// How many events are recorded and not yet reduced, over all sessions.
    public func unreducedEvents() -> Int {
        inbox.sessionKeys().reduce(0) { count, key in
            let taken = Set(loadRecord(key).taken)
            return count + inbox.entries(key).filter { !taken.contains($0) }.count
        }
    }

    /// Deletes the records of sessions untouched since `cutoff` (Unix seconds) with nothing pending:
    /// ended and abandoned sessions would otherwise pile up, one small file each, forever.
    func pruneRecords(untouchedSince cutoff: UnixTime) {
        let manager = FileManager.default
        let pending = Set(inbox.sessionKeys())
        let files = (try? manager.contentsOfDirectory(at: sessionsFolder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files where file.pathExtension == "json" {
            let key = file.deletingPathExtension().lastPathComponent
            guard !pending.contains(key),
                let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                modified.timeIntervalSince1970 < cutoff
            else { continue }
            // Best effort: a file left behind is pruned at the next session start.
            try? manager.removeItem(at: file)
            try? manager.removeItem(atPath: sessionLock(key))
        }
    }

    // MARK: Slow-server pause and refused token

    /// The Unix time before which hooks leave a slow server alone, or nil.
    func pausedUntil() -> UnixTime? {
        guard let data = try? Data(contentsOf: pauseFile) else { return nil }
        return UnixTime(String(decoding: data, as: UTF8.self).trimmingWhitespace())
    }

    /// Sets (or with nil, clears) the pause. Throws when the marker cannot be written or removed: the
    /// caller counts it (a lost pause costs one more timeout per hook, so it must not go unnoticed).
    func pause(until time: UnixTime?) throws {
        guard let time else {
            if FileManager.default.fileExists(atPath: pauseFile.path) { try FileManager.default.removeItem(at: pauseFile) }
            return
        }
        try Self.writeAtomically(Data(String(time).utf8), to: pauseFile)
    }

    /// The fingerprint of the token the server last refused, or nil.
    func refusedToken() -> String? {
        (try? Data(contentsOf: refusedTokenFile)).map { String(decoding: $0, as: UTF8.self).trimmingWhitespace() }
    }

    /// Remembers (or with nil, forgets) the fingerprint of a refused token.
    func setRefusedToken(_ fingerprint: String?) throws {
        guard let fingerprint else {
            if FileManager.default.fileExists(atPath: refusedTokenFile.path) { try FileManager.default.removeItem(at: refusedTokenFile) }
            return
        }
        try Self.writeAtomically(Data(fingerprint.utf8), to: refusedTokenFile)
    }

    // MARK: Earlier versions' spool

    func legacySpoolLines() -> [Data] {
        guard let data = try? Data(contentsOf: legacySpool) else { return [] }
        return data.split(separator: 0x0A).filter { !$0.isEmpty }.map { Data($0) }
    }

    /// Rewrites the old spool with `lines`, or removes it when none are left.
    func rewriteLegacySpool(_ lines: [Data]) throws {
        guard !lines.isEmpty else {
            try FileManager.default.removeItem(at: legacySpool)
            return
        }
        try Self.writeAtomically(Data(lines.map { $0 + Data([0x0A]) }.joined()), to: legacySpool)
    }

    /// Writes through a temporary file renamed into place, mode 0600.
    static func writeAtomically(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try AtomicFile.replace(url.path, with: Array(data), through: temporary.path)
    }
}

extension SpooledReport {
    /// One line of an earlier version's spool, or nil when it is not a report.
    static func decodeLine(_ line: Data) -> SpooledReport? {
        try? JSONDecoder().decode(SpooledReport.self, from: line)
    }
}
