import FleetApp
import Testing

@Suite struct ServerSentEventParserTests {
    static let stream = ": connected\n\nevent: session\ndata: {\"sid\":\"a\"}\n\n: keepalive\n\nevent: log\ndata: one\ndata: two\n\n"
    static let expected: [ServerSentEventParser.Output] = [
        .comment("connected"),
        .event(ServerSentEvent(name: "session", data: "{\"sid\":\"a\"}")),
        .comment("keepalive"),
        .event(ServerSentEvent(name: "log", data: "one\ntwo")),
    ]

    @Test("The server's stream parses into its comments and events, data lines joined with newlines")
    func parsesTheServersStream() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array(Self.stream.utf8)) == Self.expected)
    }

    @Test("Chunks cut anywhere, even inside a UTF-8 character, parse the same as one chunk", arguments: [1, 2, 3, 7, 64])
    func chunkBoundariesDoNotMatter(size: Int) throws {
        let bytes = Array((Self.stream + "data: café ✓\n\n").utf8)
        var parser = ServerSentEventParser()
        var outputs: [ServerSentEventParser.Output] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            outputs += try parser.feed(bytes[start..<min(start + size, bytes.count)])
        }
        #expect(outputs == Self.expected + [.event(ServerSentEvent(name: "message", data: "café ✓"))])
    }

    @Test("CRLF and lone CR end lines too, also when the CR ends a chunk")
    func crlfAndCrEndLines() throws {
        var parser = ServerSentEventParser()
        var outputs = try parser.feed(Array("event: a\r".utf8))
        outputs += try parser.feed(Array("\ndata: 1\r\r".utf8))
        outputs += try parser.feed(Array("data: 2\r\n\r\n".utf8))
        #expect(outputs == [
            .event(ServerSentEvent(name: "a", data: "1")),
            .event(ServerSentEvent(name: "message", data: "2")),
        ])
    }

    @Test("A byte-order mark at the start is dropped; id and retry are read; unknown fields are ignored")
    func bomIdRetryAndUnknownFields() throws {
        var parser = ServerSentEventParser()
        let outputs = try parser.feed(Array("\u{FEFF}id: 7\nretry: 2500\nflavour: x\ndata\n\n".utf8))
        #expect(outputs == [.retry(milliseconds: 2500), .event(ServerSentEvent(name: "message", data: "", lastEventID: "7"))])
    }

    @Test("An event without data is not dispatched, and its name does not leak into the next event")
    func eventWithoutDataIsDropped() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("event: lonely\n\ndata: x\n\n".utf8)) == [.event(ServerSentEvent(name: "message", data: "x"))])
    }

    @Test("A line past the limit fails the stream instead of growing without end; one byte under is kept")
    func overlongLineFails() throws {
        var parser = ServerSentEventParser()
        let limit = ServerSentEventParser.maximumLineBytes
        _ = try parser.feed([UInt8](repeating: 0x61, count: limit))
        #expect(throws: ServerSentEventParser.Failure.lineTooLong(bytes: limit + 1)) {
            _ = try parser.feed([0x61])
        }
        var fits = ServerSentEventParser()
        _ = try fits.feed(Array("data: ".utf8) + [UInt8](repeating: 0x61, count: limit - 6))
        #expect(try fits.feed(Array("\n\n".utf8)).count == 1)
    }
}

@Suite struct FleetStreamEventTests {
    @Test("A session event is its listing; a deleted one names the sid; a question decodes; others are ignored")
    func readsEachEvent() throws {
        let session = FleetStreamEvent(ServerSentEvent(
            name: "session", data: #"{"sid":"a","title":"T","host":"mac","cwd":"/w","busy":true,"displayState":"working"}"#))
        guard case .session(let listed) = session else { Issue.record("not a session: \(session)"); return }
        #expect(listed.sid == "a" && listed.report.title == "T" && listed.displayState == .working)
        #expect(FleetStreamEvent(ServerSentEvent(name: "session", data: #"{"sid":"a","deleted":true}"#)) == .sessionRemoved("a"))
        #expect(FleetStreamEvent(ServerSentEvent(name: "log", data: "{}")) == .ignored("event 'log'"))
        #expect(FleetStreamEvent(ServerSentEvent(name: "session", data: "nonsense")) == .ignored("a session event the app cannot read"))
    }

    @Test("A streamed 'unknown' verdict marks the host down; a later known verdict marks it up again")
    func streamedVerdictSetsHostHealth() {
        var model = SessionModel()
        model.applyStreamed(.fixture("a", host: "mac", displayState: .unknown))
        #expect(model.hosts["mac"] == .knownDown)
        #expect(!model.fleetCountIsTrustworthy)
        model.applyStreamed(.fixture("a", host: "mac", displayState: .working))
        #expect(model.hosts["mac"] == .up)
        #expect(model.sessions.map(\.sid) == ["a"])
    }
}
