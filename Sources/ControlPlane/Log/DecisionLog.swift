import FleetCore
import Foundation
import Synchronization

/// Where decision-log lines go. Implementations append in order and never drop a line silently.
public protocol DecisionLogSink: Sendable {
    func append(_ lines: [DecisionLogLine]) async
}

/// The decision log kept in memory (tests, the simulator).
public final class InMemoryDecisionLog: DecisionLogSink {
    private let lines = Mutex<[DecisionLogLine]>([])
    public init() {}
    public func append(_ new: [DecisionLogLine]) async { lines.withLock { $0 += new } }
    public var all: [DecisionLogLine] { lines.withLock { $0 } }
}

/// `$LFG_HOME/liveactivity.log`: one JSON object per line, appended, never pruned.
public final class DecisionLogFile: DecisionLogSink {
    private let handle: Mutex<FileHandle?>
    public let path: String

    /// Opens (creating) `path` for appending.
    public init(path: String) throws(StoreError) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw StoreError(operation: "open decision log", message: "cannot create \(path); check LFG_HOME is writable")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw StoreError(operation: "open decision log", message: "cannot open \(path) for writing; check its permissions")
        }
        _ = try? handle.seekToEnd()
        self.handle = Mutex(handle)
    }

    public func append(_ lines: [DecisionLogLine]) async {
        guard !lines.isEmpty else { return }
        var data = Data()
        for line in lines {
            data.append(contentsOf: line.jsonBytes)
            data.append(0x0A)
        }
        handle.withLock { handle in
            _ = try? handle?.seekToEnd()
            try? handle?.write(contentsOf: data)
        }
    }

    /// The last `limit` lines of the file at `path` (at most the last 1 MiB is read).
    public static func tail(path: String, limit: Int) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        let start = size > 1 << 20 ? size - (1 << 20) : 0
        try? handle.seek(toOffset: start)
        let data = (try? handle.readToEnd()) ?? Data()
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        if start > 0, !lines.isEmpty { lines.removeFirst() }
        return Array(lines.suffix(limit))
    }
}
