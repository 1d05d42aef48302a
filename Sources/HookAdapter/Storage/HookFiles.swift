import FleetCore
import Foundation

/// The hook's files in `$LFG_HOME`: per-session state, the spool of undelivered reports, and two locks.
///
/// - `hook-sessions/<sid>.json`: one ``HookSessionState`` per session.
/// - `hook-spool.jsonl`: one ``SpooledReport`` per line, oldest first.
/// - `hook-paused-until`: after a request timed out, when hooks may try the server again.
/// - `hook.lock` guards state and spool edits (held for milliseconds);
///   `hook-delivery.lock` lets one process at a time deliver, so reports leave in order.
public struct HookFiles: Sendable {
    public let home: URL

    public init(home: URL) { self.home = home }

    var sessionsFolder: URL { home.appendingPathComponent("hook-sessions", isDirectory: true) }
    /// The spool file.
    public var spool: URL { home.appendingPathComponent("hook-spool.jsonl") }
    var journalLock: String { home.appendingPathComponent("hook.lock").path }
    var deliveryLock: String { home.appendingPathComponent("hook-delivery.lock").path }
    var pauseFile: URL { home.appendingPathComponent("hook-paused-until") }

    /// Creates `$LFG_HOME` (0700) and the sessions folder when missing.
    func prepare() throws {
        try FileManager.default.createDirectory(
            at: sessionsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    // MARK: Session state

    func stateFile(_ sid: String) -> URL {
        sessionsFolder.appendingPathComponent(Self.fileName(for: sid) + ".json")
    }

    /// A session id as a file name: kept when it is plain (Claude's are UUIDs), hex-encoded otherwise.
    static func fileName(for sid: String) -> String {
        let plain = sid.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        if plain, !sid.isEmpty, sid.count <= 128 { return sid }
        return "x" + sid.utf8.prefix(100).map { String(format: "%02x", $0) }.joined()
    }

    /// The stored state of `sid`, or nil when none (or unreadable: the session then starts afresh).
    func loadState(_ sid: String) -> HookSessionState? {
        guard let data = try? Data(contentsOf: stateFile(sid)) else { return nil }
        return try? JSONDecoder().decode(HookSessionState.self, from: data)
    }

    func saveState(_ state: HookSessionState, for sid: String) throws {
        try JSONEncoder().encode(state).write(to: stateFile(sid), options: .atomic)
    }

    /// Deletes the state of sessions untouched since `cutoff` (Unix seconds): ended and abandoned
    /// sessions would otherwise pile up, one small file each, forever.
    func pruneStates(untouchedSince cutoff: UnixTime) {
        let manager = FileManager.default
        let files = (try? manager.contentsOfDirectory(at: sessionsFolder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            guard let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                modified.timeIntervalSince1970 < cutoff
            else { continue }
            try? manager.removeItem(at: file)
        }
    }

    // MARK: Slow-server pause

    /// The Unix time before which hooks leave a slow server alone, or nil.
    func pausedUntil() -> UnixTime? {
        guard let data = try? Data(contentsOf: pauseFile) else { return nil }
        return UnixTime(String(decoding: data, as: UTF8.self).trimmingWhitespace())
    }

    /// Sets (or with nil, clears) the pause; best effort, since a lost pause only costs one timeout.
    func pause(until time: UnixTime?) {
        guard let time else {
            try? FileManager.default.removeItem(at: pauseFile)
            return
        }
        try? Data(String(time).utf8).write(to: pauseFile, options: .atomic)
    }

    // MARK: Spool

    /// Appends reports to the end of the spool (caller holds the journal lock).
    func append(_ reports: [SpooledReport]) throws {
        guard !reports.isEmpty else { return }
        var lines = Data()
        for report in reports {
            lines.append(try JSONEncoder().encode(report))
            lines.append(0x0A)
        }
        if !FileManager.default.fileExists(atPath: spool.path) {
            _ = FileManager.default.createFile(atPath: spool.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let handle = try FileHandle(forWritingTo: spool)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: lines)
    }

    /// Every spooled report, oldest first; a line that does not decode is skipped (and dropped at the next trim).
    public func spooledReports() -> [SpooledReport] {
        spoolLines().compactMap(SpooledReport.decodeLine)
    }

    func spoolLines() -> [Data] {
        guard let data = try? Data(contentsOf: spool) else { return [] }
        return data.split(separator: 0x0A).filter { !$0.isEmpty }.map { Data($0) }
    }

    /// Rewrites the spool without its first `count` reports (caller holds the journal lock).
    func dropFirst(_ count: Int) throws {
        let remaining = Array(spoolLines().dropFirst(count))
        try rewrite(remaining)
    }

    /// Bounds a spool the server has not taken for a long time: past `limit` reports, keeps only the
    /// newest report of each session (each is a whole PUT, so no final state is lost), in order.
    func compactIfOver(_ limit: Int) throws {
        let lines = spoolLines()
        guard lines.count > limit else { return }
        var seen = Set<SessionID>()
        var kept: [Data] = []
        for line in lines.reversed() {
            guard let report = SpooledReport.decodeLine(line) else { continue }
            if seen.insert(report.sid).inserted { kept.append(line) }
        }
        try rewrite(kept.reversed())
    }

    private func rewrite(_ lines: [Data]) throws {
        var data = Data()
        for line in lines {
            data.append(line)
            data.append(0x0A)
        }
        try data.write(to: spool, options: .atomic)
    }
}

extension SpooledReport {
    /// One spool line, or nil when it is not a report.
    static func decodeLine(_ line: Data) -> SpooledReport? {
        try? JSONDecoder().decode(SpooledReport.self, from: line)
    }
}
