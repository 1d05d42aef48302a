import FleetCore
import Foundation
import Synchronization

/// Where decision-log lines go. Implementations append in order and never drop a line silently:
/// a line that cannot be written is counted (`unwrittenLines`) and said once.
public protocol DecisionLogSink: Sendable {
    func append(_ lines: [DecisionLogLine]) async
    /// How many lines could not be written since the sink opened.
    var unwrittenLines: Int { get }
}

/// The decision log kept in memory (tests, the simulator).
public final class InMemoryDecisionLog: DecisionLogSink {
    private let lines = Mutex<[DecisionLogLine]>([])
    public init() {}
    public func append(_ new: [DecisionLogLine]) async { lines.withLock { $0 += new } }
    public var all: [DecisionLogLine] { lines.withLock { $0 } }
    /// Memory never refuses a line.
    public var unwrittenLines: Int { 0 }
}

/// Appends bytes to the log's storage; throws when they did not all land.
public protocol DecisionLogWriter: Sendable {
    func append(_ data: Data) throws
}

/// `$LFG_HOME/liveactivity.log`: one JSON object per line, appended, never pruned.
///
/// A failed write (disk full, file gone read-only) loses its lines: they are counted, shown on
/// `GET /api/push/live-activity/state` and the dashboard, and the first failure is reported (stderr in
/// `lfg serve`) once, so a log that stopped growing is never mistaken for a quiet fleet.
public final class DecisionLogFile: DecisionLogSink {
    private struct Failures {
        var unwrittenLines = 0
        var isReported = false
    }

    private let writer: any DecisionLogWriter
    private let failures = Mutex(Failures())
    private let reportProblem: @Sendable (String) -> Void
    public let path: String

    /// Opens (creating) `path` for appending.
    public convenience init(
        path: String, reportProblem: @escaping @Sendable (String) -> Void = DecisionLogFile.standardError
    ) throws(StoreError) {
        self.init(path: path, writer: try FileAppender(path: path), reportProblem: reportProblem)
    }

    /// A log that writes through `writer` (tests inject one that fails).
    public init(
        path: String, writer: any DecisionLogWriter,
        reportProblem: @escaping @Sendable (String) -> Void = DecisionLogFile.standardError
    ) {
        self.path = path
        self.writer = writer
        self.reportProblem = reportProblem
    }

    public func append(_ lines: [DecisionLogLine]) async {
        guard !lines.isEmpty else { return }
        var data = Data()
        for line in lines {
            data.append(contentsOf: line.jsonBytes)
            data.append(0x0A)
        }
        do {
            try writer.append(data)
        } catch {
            let isFirst = failures.withLock { failures in
                failures.unwrittenLines += lines.count
                defer { failures.isReported = true }
                return !failures.isReported
            }
            if isFirst {
                reportProblem(
                    "decision log: cannot write \(path): \(error); lines are being lost, counted as "
                        + "decisionLogUnwrittenLines on /api/push/live-activity/state (said once)")
            }
        }
    }

    public var unwrittenLines: Int { failures.withLock { $0.unwrittenLines } }

    /// Writes a problem to stderr.
    public static let standardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data(("lfg: " + message + "\n").utf8))
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

/// Appends to a file through one handle, at its end every time (another writer may have appended).
final class FileAppender: DecisionLogWriter {
    private let handle: Mutex<FileHandle>

    init(path: String) throws(StoreError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw StoreError(operation: "open decision log", message: "cannot create \(path); check LFG_HOME is writable")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw StoreError(operation: "open decision log", message: "cannot open \(path) for writing; check its permissions")
        }
        self.handle = Mutex(handle)
    }

    func append(_ data: Data) throws {
        try handle.withLock { handle in
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        }
    }
}
