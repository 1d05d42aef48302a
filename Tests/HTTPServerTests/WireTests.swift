import Foundation
import HTTPServer
import HTTPTypes
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server's own HTTP/1.1 handling over a real socket: pipelining, requests written a byte at a
/// time, `100 Continue`, HTTP/1.0, and JSON for what it refuses.
@Suite struct WireTests {
    /// Echoes the path and the body.
    static let echo = HandlerFunction { request in
        HTTPResponse(status: 200, body: .bytes(Data((request.path + ":").utf8) + request.body))
    }

    /// A connected socket whose reads give up after 10 s (so a missing answer fails, never hangs).
    static func connect(_ base: String) throws -> Int32 {
        let port = try #require(base.split(separator: ":").last.flatMap { UInt16($0) })
        let socket = try RawSocket.connected(port: port)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    static func send(_ socket: Int32, _ text: String) {
        _ = text.withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the server closes (or the 10 s read timeout).
    static func readToEnd(_ socket: Int32) -> String {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// Reads until `text` holds `marker` (or the server closes).
    static func read(_ socket: Int32, until marker: String) -> String {
        var reply = ""
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !reply.contains(marker) {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return reply
    }

    @Test("Pipelined requests on one connection are answered in order", .timeLimit(.minutes(1)))
    func pipelinedInOrder() async throws {
        try await withServer(handler: Self.echo) { base in
            let socket = try Self.connect(base)
            defer { close(socket) }
            Self.send(socket, "GET /one HTTP/1.1\r\nHost: x\r\n\r\nPUT /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let reply = Self.readToEnd(socket)
            let bodies = reply.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix { $0 != "H" } }
            #expect(bodies == ["/one:", "/two:abc", "/three:"], "reply: \(reply)")
            #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
        }
    }

    @Test("A request written one byte at a time is served", .timeLimit(.minutes(1)))
    func requestInManySmallWrites() async throws {
        try await withServer(handler: Self.echo) { base in
            let socket = try Self.connect(base)
            defer { close(socket) }
            for byte in "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello" {
                Self.send(socket, String(byte))
            }
            let reply = Self.readToEnd(socket)
            #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"), "reply: \(reply)")
            #expect(reply.hasSuffix("\r\n\r\n/slow:hello"))
            #expect(reply.contains("Connection: close\r\n"))
        }
    }

    @Test("Expect: 100-continue gets 100 Continue, then the answer to the body sent after it",
          .timeLimit(.minutes(1)))
    func continueBeforeBody() async throws {
        try await withServer(handler: Self.echo) { base in
            let socket = try Self.connect(base)
            defer { close(socket) }
            Self.send(socket, "PUT /c HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(Self.read(socket, until: "\r\n\r\n") == "HTTP/1.1 100 Continue\r\n\r\n")
            Self.send(socket, "body")
            #expect(Self.read(socket, until: "/c:body").hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test("An HTTP/1.0 request is answered and the connection closed", .timeLimit(.minutes(1)))
    func http10Closes() async throws {
        try await withServer(handler: Self.echo) { base in
            let socket = try Self.connect(base)
            defer { close(socket) }
            Self.send(socket, "GET /old HTTP/1.0\r\n\r\n")
            let reply = Self.readToEnd(socket)
            #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(reply.contains("Connection: close\r\n"))
            #expect(reply.hasSuffix("/old:"))
        }
    }

    @Test("A request line that does not parse is a 400 in the error shape, never HTML", .timeLimit(.minutes(1)))
    func unparsableRequestLineIsJSON() async throws {
        try await withServer(handler: Self.echo) { base in
            let socket = try Self.connect(base)
            defer { close(socket) }
            Self.send(socket, "GET / HTTP/1.1 trailing\r\nHost: x\r\n\r\n")
            let reply = Self.readToEnd(socket)
            #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(reply.contains("Content-Type: application/json\r\n"))
            let body = try #require(reply.components(separatedBy: "\r\n\r\n").last)
            #expect(try JSONDecoder().decode(ErrorBody.self, from: Data(body.utf8)).error.contains("request line"))
        }
    }

    @Test("A HEAD answer has the length of the body but no body", .timeLimit(.minutes(1)))
    func headHasNoBody() async throws {
        try await withServer(handler: Self.echo) { base in
            let socket = try Self.connect(base)
            defer { close(socket) }
            Self.send(socket, "HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let reply = Self.readToEnd(socket)
            #expect(reply.contains("Content-Length: 3\r\n"))
            #expect(reply.hasSuffix("\r\n\r\n"))
        }
    }
}
