import Foundation
import Testing

@testable import HTTPServer

/// The parser alone, without sockets: whole requests, requests split at every byte, pipelining,
/// and every refusal.
@Suite struct RequestParserTests {
    static let limits = RequestParser.Limits(maxBodyBytes: 1_000)

    /// Parses `text` fed in pieces cut at `cuts`, as a connection would: the bytes only grow until a request.
    static func parse(_ text: String, cuts: [Int] = []) -> [RequestParser.Outcome] {
        let bytes = Array(text.utf8)
        var parser = RequestParser(limits: limits)
        var outcomes: [RequestParser.Outcome] = []
        for end in cuts + [bytes.count] { outcomes.append(parser.parse(Array(bytes[0..<end]))) }
        return outcomes
    }

    static let put = "PUT /api/sessions/a%20b?x=1&x=2&flag HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
        + "X-Many: 1\r\nx-many: 2\r\nContent-Length: 7\r\n\r\n{\"a\":1}"

    @Test("A whole request: method, target, version, lower-cased headers joined, body range and length")
    func wholeRequest() throws {
        let outcome = try #require(Self.parse(Self.put).last)
        guard case .complete(let head, let body, let consumed) = outcome else {
            Issue.record("expected a request, got \(outcome)")
            return
        }
        #expect(head.method == "PUT")
        #expect(head.target == "/api/sessions/a%20b?x=1&x=2&flag")
        #expect(head.minorVersion == 1)
        #expect(head.headers["x-many"] == "1, 2")
        #expect(head.headers["content-type"] == "application/json")
        #expect(head.contentLength == 7)
        #expect(consumed == Self.put.utf8.count)
        #expect(Array(Array(Self.put.utf8)[body]) == Array("{\"a\":1}".utf8))
        let request = head.request(body: Data("{}".utf8), remoteAddress: "127.0.0.1")
        #expect(request.path == "/api/sessions/a b")
        #expect(request.rawPath == "/api/sessions/a%20b")
        #expect(request.query == ["x": "2", "flag": ""])
        #expect(request.remoteAddress == "127.0.0.1")
    }

    @Test("Query arguments read + as a space and %2B as a plus, as libmicrohttpd did")
    func queryPlusIsASpace() {
        #expect(RequestHead.queryArguments("code=ab+cd&d%2Be=x%2By&plain") == ["code": "ab cd", "d+e": "x+y", "plain": ""])
    }

    @Test("A request split at every byte boundary parses the same as whole")
    func splitAtEveryByte() {
        let whole = Self.parse(Self.put).last
        let count = Self.put.utf8.count
        for cut in 1..<count {
            let outcomes = Self.parse(Self.put, cuts: [cut])
            #expect(outcomes.last == whole, "cut at \(cut)")
            #expect(!outcomes.dropLast().contains { if case .complete = $0 { true } else { false } })
        }
        // One byte at a time: incomplete until the head ends, then waiting for the body, then whole.
        let outcomes = Self.parse(Self.put, cuts: Array(1..<count))
        #expect(outcomes.last == whole)
        let headEnd = Self.put.utf8.count - 7
        #expect(outcomes[headEnd - 2] == .incomplete)
        if case .awaitingBody = outcomes[headEnd - 1] {} else { Issue.record("expected awaitingBody, got \(outcomes[headEnd - 1])") }
    }

    @Test("Pipelined requests come out one at a time, each consuming only its own bytes")
    func pipelined() throws {
        let first = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
        let second = "POST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"
        var bytes = Array((first + second + "GET /c").utf8)
        var parser = RequestParser(limits: Self.limits)
        var targets: [String] = []
        while case .complete(let head, _, let consumed) = parser.parse(bytes) {
            targets.append(head.target)
            bytes.removeFirst(consumed)
        }
        #expect(targets == ["/a", "/b"])
        #expect(bytes == Array("GET /c".utf8))
        #expect(parser.parse(bytes) == .incomplete)
    }

    @Test("Empty lines before a request line are skipped")
    func leadingEmptyLines() {
        guard case .complete(let head, _, _) = Self.parse("\r\n\r\nGET /x HTTP/1.1\r\n\r\n").last else {
            Issue.record("expected a request")
            return
        }
        #expect(head.target == "/x")
    }

    @Test("Malformed request lines and headers are 400s", arguments: [
        "BROKEN\r\n\r\n",
        "GET  /x HTTP/1.1\r\n\r\n",
        "GET /x HTTP/1.1 extra\r\n\r\n",
        "GET x HTTP/1.1\r\n\r\n",
        "G(T /x HTTP/1.1\r\n\r\n",
        "GET /x HTTP/1.1\n\r\n\r\n",
        "GET /x HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET /x HTTP/1.1\r\nBad Name: 1\r\n\r\n",
        "GET /x HTTP/1.1\r\n: empty name\r\n\r\n",
        "GET /x HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n",
        "GET /x HTTP/1.1\r\nA: x\ry\r\n\r\n",
        "GET /x HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
        "GET /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "GET /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET /x HTTPS/1.1\r\n\r\n",
    ])
    func malformed(raw: String) {
        guard case .refused(let refusal) = Self.parse(raw).last else {
            Issue.record("expected a refusal for \(raw.debugDescription)")
            return
        }
        #expect(refusal.status == 400)
        #expect(refusal.response.header("content-type") == "application/json")
    }

    @Test("Only HTTP/1.0 and 1.1 are served: another version is a 505")
    func otherVersions() {
        #expect(Self.parse("GET /x HTTP/2.0\r\n\r\n").last == .refused(.unsupportedVersion))
    }

    @Test("Transfer-Encoding is a 411 and an over-limit Content-Length a 413, both before any body byte")
    func bodyRefusals() {
        #expect(Self.parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").last == .refused(.chunkedBody))
        #expect(Self.parse("POST /x HTTP/1.1\r\nContent-Length: 1001\r\n\r\n").last
            == .refused(.bodyTooLarge(Self.limits)))
        if case .awaitingBody = Self.parse("POST /x HTTP/1.1\r\nContent-Length: 1000\r\n\r\n").last {} else {
            Issue.record("a body at the limit is read")
        }
    }

    @Test("A target over 8 KiB is a 414, even before its line ends; a head over 32 KiB is a 431")
    func sizeCaps() {
        let long = "GET /" + String(repeating: "a", count: 8_300)
        #expect(Self.parse(long).last == .refused(.uriTooLong(Self.limits)))
        #expect(Self.parse(long + " HTTP/1.1\r\n\r\n").last == .refused(.uriTooLong(Self.limits)))
        let manyHeaders = "GET /x HTTP/1.1\r\n" + String(repeating: "X-Pad: \(String(repeating: "p", count: 100))\r\n", count: 400)
        #expect(Self.parse(manyHeaders).last == .refused(.headTooLarge(Self.limits)))
        #expect(Self.parse(manyHeaders + "\r\n").last == .refused(.headTooLarge(Self.limits)))
    }

    @Test("Expect: 100-continue is seen on HTTP/1.1 only; keep-alive follows the version and Connection")
    func continueAndKeepAlive() throws {
        guard case .awaitingBody(let awaiting) = Self.parse(
            "PUT /x HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n").last
        else {
            Issue.record("expected the head")
            return
        }
        #expect(awaiting.expectsContinue)
        #expect(awaiting.isKeepAlive)
        func head(_ text: String) -> RequestHead? {
            if case .complete(let head, _, _) = Self.parse(text).last { return head }
            return nil
        }
        #expect(head("GET /x HTTP/1.0\r\nExpect: 100-continue\r\n\r\n")?.expectsContinue == false)
        #expect(head("GET /x HTTP/1.0\r\n\r\n")?.isKeepAlive == false)
        #expect(head("GET /x HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")?.isKeepAlive == true)
        #expect(head("GET /x HTTP/1.1\r\nConnection: close\r\n\r\n")?.isKeepAlive == false)
        #expect(head("GET /x HTTP/1.1\r\nConnection: TE, close\r\n\r\n")?.isKeepAlive == false)
    }
}
