import Diagnosis
import Testing

@Suite struct LogReadingTests {
    @Test("A truncated last line is reported and skipped; the lines before it count")
    func truncatedLastLine() throws {
        var log = LogFixture()
        log.start(1_000)
        log.line(1_010, "adopted")
        let text = log.lines.joined(separator: "\n") + "\n" + #"{"ts": 1020, "event": "dec"#
        let report = log.report(text: text)
        #expect(report.lines == 4)
        #expect(report.entries == 3)
        #expect(report.skippedCount == 1)
        #expect(report.skipped == [SkippedLine(line: 4, reason: "truncated")])
        #expect(report.devices.first?.starts.adopted == 1)
    }

    @Test("A garbled line in the middle is skipped with its number, and a complete last line without newline counts")
    func garbledMiddleLine() throws {
        var log = LogFixture()
        log.start(1_000)
        log.lines.insert("not json at all", at: 1)
        log.line(1_010, "adopted")
        let report = log.report(text: log.lines.joined(separator: "\n"))
        #expect(report.skipped == [SkippedLine(line: 2, reason: "garbled")])
        #expect(report.entries == 3)
        #expect(report.devices.first?.starts.adopted == 1)
    }

    @Test("Feeding one byte at a time gives the same report as one chunk")
    func chunkBoundariesDoNotMatter() {
        var log = LogFixture()
        log.start(1_000)
        log.update(1_030, status: 400, reason: "BadDeviceToken")
        log.line(1_040, "adopted")
        #expect(log.report(chunkSize: 1) == log.report())
        #expect(log.report(chunkSize: 7) == log.report())
    }

    @Test("A line longer than the limit is skipped without being kept")
    func overlongLineIsSkipped() {
        var splitter = LineSplitter(maxLineBytes: 8)
        var pieces: [String] = []
        for chunk in ["abc\n0123", "456789", "xyz\nok\nta", "il"] {
            var bytes = Array(chunk.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                splitter.feed(UnsafeRawBufferPointer(buffer)) { piece in
                    switch piece {
                    case .line(let line): pieces.append("line " + String(decoding: line, as: UTF8.self))
                    case .unterminated(let line): pieces.append("tail " + String(decoding: line, as: UTF8.self))
                    case .overlong: pieces.append("overlong")
                    }
                }
            }
        }
        splitter.finish { piece in
            if case .unterminated(let line) = piece { pieces.append("tail " + String(decoding: line, as: UTF8.self)) }
        }
        #expect(pieces == ["line abc", "overlong", "line ok", "tail tail"])
    }

    @Test("The parser reads escapes, skips nested and unknown values, and refuses incomplete objects")
    func parserEdges() {
        let line = #"{"rows":["a:working",{"x":[1,2]}],"ts":1.5e3,"event":"se\u006ed","deviceId":"ph\"one","status":200,"extra":null}"#
        #expect(LogLineParser.parse(line) == LogEntry(ts: 1_500, event: .send, deviceId: "ph\"one", status: 200))
        #expect(LogLineParser.parse(#"{"ts": -2.25, "event": "adopted"}"#) == LogEntry(ts: -2.25, event: .adopted))
        #expect(LogLineParser.parse(#"{"event": "adopted"}"#) == nil)
        #expect(LogLineParser.parse(#"{"ts": 1, "event": "adopted"} trailing"#) == nil)
        #expect(LogLineParser.parse(#"{"ts": 1, "event": "adopted""#) == nil)
        #expect(LogLineParser.parse(#"{"ts": "1", "event": "adopted"}"#) == nil)
        #expect(LogLineParser.parse(String(repeating: "[", count: 100)) == nil)
    }
}
