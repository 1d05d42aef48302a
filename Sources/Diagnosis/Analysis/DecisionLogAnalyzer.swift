import FleetCore

/// Reads a decision log line by line and builds a `DiagnosisReport`, in memory bounded by the
/// number of devices (not lines).
///
/// Feed it bytes with `feed(_:)` in chunks of any size, then call `finish()`. A line that is not a
/// complete entry (garbled, or a truncated last line) is counted, listed (the first few) and skipped.
public struct DecisionLogAnalyzer {
    /// How many skipped lines the report names.
    public static let maxListedSkips = 20

    private var splitter = LineSplitter()
    private var lineNumber = 0
    private var entries = 0
    private var skippedCount = 0
    private var skipped: [SkippedLine] = []
    private var firstTs: Double?
    private var lastTs: Double?
    private var devices: [String: DeviceTimeline] = [:]

    public init() {}

    /// Consumes the next bytes of the log.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        var splitter = self.splitter
        splitter.feed(chunk) { piece in consume(piece) }
        self.splitter = splitter
    }

    /// Ends the log and returns the report.
    public mutating func finish() -> DiagnosisReport {
        var splitter = self.splitter
        splitter.finish { piece in consume(piece) }
        self.splitter = splitter
        let end = lastTs ?? 0
        return DiagnosisReport(
            lines: lineNumber, entries: entries, skippedCount: skippedCount, skipped: skipped, firstTs: firstTs,
            lastTs: lastTs,
            devices: devices.keys.sorted().compactMap { devices[$0]?.diagnosis(lastTs: end) })
    }

    /// One entry, for callers that already parsed lines.
    public mutating func consume(_ entry: LogEntry) {
        entries += 1
        if firstTs == nil { firstTs = entry.ts }
        lastTs = max(lastTs ?? entry.ts, entry.ts)
        // Questions' lines (some on no device at all) say nothing about a card.
        guard entry.event?.concernsCard ?? true else { return }
        devices[entry.deviceId, default: DeviceTimeline(deviceId: entry.deviceId)].consume(entry)
    }

    private mutating func consume(_ piece: LineSplitter.Piece) {
        lineNumber += 1
        switch piece {
        case .line(let bytes):
            if let entry = LogLineParser.parse(bytes) {
                consume(entry)
            } else if !Self.isBlank(bytes) {
                skip("garbled")
            }
        case .unterminated(let bytes):
            if let entry = LogLineParser.parse(bytes) { consume(entry) } else { skip("truncated") }
        case .overlong:
            skip("overlong")
        }
    }

    private mutating func skip(_ reason: String) {
        skippedCount += 1
        if skipped.count < Self.maxListedSkips { skipped.append(SkippedLine(line: lineNumber, reason: reason)) }
    }

    private static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
