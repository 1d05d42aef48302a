#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FleetCore

/// Which agent process runs a session, as the hook saw it: `$LFG_HOME/hook-agents/<key>.json`, one per
/// session, for `lfg host` to watch (a session whose process is gone has lost its agent).
///
/// The hook writes it (whole, renamed into place) when the session's agent process is new or changed, and
/// removes it at the session's end (`SessionEnd`). The host reads ``readAll(home:)`` and checks each with
/// ``isAgentRunning``. JSON, e.g.
/// `{"agent":"claude","host":"mbp","pid":4242,"processName":"claude","processStart":123456,"sid":"…","seenAt":1764620000}`.
public struct AgentProcessRecord: Hashable, Sendable {
    /// The folder's name in `$LFG_HOME`.
    public static let folderName = "hook-agents"

    /// The session id.
    public var sid: String
    /// The host name its reports carry.
    public var host: HostID
    /// The `--agent` name of the adapter that read its hooks, e.g. `claude`, `codex`.
    public var agent: String
    /// The agent's process (see ``AgentProcess/agent(ofParent:)``).
    public var process: AgentProcess
    /// Unix seconds when the hook first saw this process run the session.
    public var seenAt: UnixTime

    public init(sid: String, host: HostID, agent: String, process: AgentProcess, seenAt: UnixTime) {
        self.sid = sid
        self.host = host
        self.agent = agent
        self.process = process
        self.seenAt = seenAt
    }

    /// Whether the recorded process (same id and start time) still runs.
    public var isAgentRunning: Bool { process.isRunning }

    /// The record's file for session key `key` (``SessionKey``).
    public static func path(home: String, key: String) -> String { "\(home)/\(folderName)/\(key).json" }

    /// The record as it is written.
    public var json: JSONValue {
        .object([
            "sid": .string(sid), "host": .string(host.rawValue), "agent": .string(agent),
            "pid": .number(String(process.pid)), "processStart": .number(String(process.startTime)),
            "processName": .string(process.name), "parentPid": .number(String(process.parentPID)),
            "seenAt": .number(String(seenAt)),
        ])
    }

    /// Reads a record back; nil when the JSON is not one.
    public init?(json: JSONValue) {
        func integer<T: FixedWidthInteger>(_ key: String, as: T.Type) -> T? {
            guard case .number(let literal) = json[key] else { return nil }
            return T(literal)
        }
        guard let sid = json["sid"]?.stringValue, let pid = integer("pid", as: Int32.self),
            let start = integer("processStart", as: UInt64.self)
        else { return nil }
        let seenAt: UnixTime
        if case .number(let literal) = json["seenAt"] { seenAt = UnixTime(literal) ?? 0 } else { seenAt = 0 }
        self.init(
            sid: sid, host: HostID(json["host"]?.stringValue ?? HostID.local.rawValue), agent: json["agent"]?.stringValue ?? "",
            process: AgentProcess(
                pid: pid, startTime: start, name: json["processName"]?.stringValue ?? "",
                parentPID: integer("parentPid", as: Int32.self) ?? 0),
            seenAt: seenAt)
    }

    /// The record of session key `key`, or nil when there is none (or it is unreadable).
    public static func read(home: String, key: String) -> AgentProcessRecord? {
        guard let bytes = readWholeFile(path(home: home, key: key), limit: 64 * 1024),
            let json = try? JSONParser.parse(bytes: bytes)
        else { return nil }
        return AgentProcessRecord(json: json)
    }

    /// Every session's record, by session key.
    public static func readAll(home: String) -> [String: AgentProcessRecord] {
        var records: [String: AgentProcessRecord] = [:]
        for name in folderEntries("\(home)/\(folderName)") where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let key = String(name.dropLast(5))
            if let record = read(home: home, key: key) { records[key] = record }
        }
        return records
    }

    /// Keeps session `key`'s record as one hook event leaves it, the one rule both hook paths follow
    /// (`lfg-hook` and `lfg hook`): removed at `SessionEnd`, written when the agent process is known and
    /// new. Returns whether the file changed (then `lfg host` should be rung to read it).
    @discardableResult
    public static func keep(
        after event: HookEvent, key: String, host: HostID, agent: String, process: AgentProcess?, seenAt: UnixTime, home: String
    ) throws(SystemCallError) -> Bool {
        if event.name == .sessionEnd { return try remove(home: home, key: key) }
        guard let process else { return false }
        return try AgentProcessRecord(sid: event.sessionID, host: host, agent: agent, process: process, seenAt: seenAt)
            .save(home: home, key: key)
    }

    /// Writes the record for session key `key` unless the one stored already names the same process
    /// (so a session's hooks write it once, not on every event). Returns whether it wrote.
    @discardableResult
    public func save(home: String, key: String) throws(SystemCallError) -> Bool {
        if let stored = Self.read(home: home, key: key), stored.process.pid == process.pid,
            stored.process.startTime == process.startTime, stored.sid == sid
        {
            return false
        }
        let folder = "\(home)/\(Self.folderName)"
        try AtomicFile.makeFolder(folder)
        try AtomicFile.replace(
            Self.path(home: home, key: key), with: Array(json.compactPrinted().utf8), through: "\(folder)/.\(key).\(getpid()).tmp")
        return true
    }

    /// Removes the record of session key `key` (the session ended); a missing one is fine. Returns whether
    /// there was one.
    @discardableResult
    public static func remove(home: String, key: String) throws(SystemCallError) -> Bool {
        if unlink(path(home: home, key: key)) == 0 { return true }
        guard errno == ENOENT else { throw SystemCallError("unlink \(path(home: home, key: key))") }
        return false
    }
}

/// The names in folder `path` (without `.` and `..`); empty when it cannot be read.
func folderEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
