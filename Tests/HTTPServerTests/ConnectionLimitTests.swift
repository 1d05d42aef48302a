import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Connection exhaustion: slow headers are cut at a deadline, a client over its cap gets a fast 503
/// in the contract's shape, and everyone else keeps being served.
@Suite struct ConnectionLimitTests {
    let client = HTTPClient()

    /// Runs `body` against a server with `configuration` on a free loopback port.
    func withServer(
        _ configuration: HTTPServerConfiguration, _ body: (HTTPServer, UInt16) async throws -> Void
    ) async throws {
        let server = HTTPServer(configuration: configuration, handler: HandlerFunction { _ in .json(["ok": true]) })
        let port = try server.start()
        let running = Task { try await server.run() }
        try await body(server, port)
        running.cancel()
        try await running.value
    }

    @Test("A connection whose headers trickle in is closed at the header deadline", .timeLimit(.minutes(1)))
    func slowHeadersAreCut() async throws {
        try await withServer(.init(port: 0, headerDeadline: .milliseconds(300))) { server, port in
            let socket = try RawSocket.connected(port: port)
            defer { close(socket) }
            _ = "GET /healthz HTTP/1.1\r\nHost: a\r\n".withCString { send(socket, $0, strlen($0), 0) }
            var byte: UInt8 = 0
            #expect(recv(socket, &byte, 1, 0) <= 0, "the server closes the connection")
            #expect(server.connectionCounts.expired == 1)
            // A request that completes its headers in time is served as usual.
            #expect(try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/healthz")).status == 200)
        }
    }

    @Test("A client over its connection cap gets a fast 503 with the error body", .timeLimit(.minutes(1)))
    func overCapIsRefusedFast() async throws {
        try await withServer(.init(port: 0, perClientConnectionLimit: 3)) { server, port in
            let held = try (0..<3).map { _ in try RawSocket.connected(port: port) }
            defer { for socket in held { close(socket) } }
            // The cap counts connections the server has accepted: wait (bounded) until it holds all three,
            // or the fourth may be accepted first and wait out the header deadline (seen once in 24 soak runs).
            let deadline = ContinuousClock.now + .seconds(10)
            while server.connectionCounts.open < 3, ContinuousClock.now < deadline { await Task.yield() }
            try #require(server.connectionCounts.open == 3, "the server accepted the three held connections")
            let reply = try RawSocket.exchange(port: port, bytes: "")
            #expect(reply.hasPrefix("HTTP/1.1 503"), "reply: \(reply)")
            let body = try #require(reply.components(separatedBy: "\r\n\r\n").last)
            let error = try JSONDecoder().decode(ErrorBody.self, from: Data(body.utf8))
            #expect(error.error.contains("3 connections open"))
            #expect(server.connectionCounts.refused >= 1)
        }
    }

    @Test("A client over its cap still sending a large request reads the whole 503 body, not a reset",
          .timeLimit(.minutes(1)))
    func overCapClientStillSendingReadsThe503() async throws {
        try await withServer(.init(port: 0, perClientConnectionLimit: 1)) { server, port in
            let held = try RawSocket.connected(port: port)
            defer { close(held) }
            let deadline = ContinuousClock.now + .seconds(10)
            while server.connectionCounts.open < 1, ContinuousClock.now < deadline { await Task.yield() }
            try #require(server.connectionCounts.open == 1, "the server accepted the held connection")
            // Far more than the socket buffers hold (4 MiB at most to send): the client is still sending
            // when the 503 is written.
            let bodyBytes = 16 * 1024 * 1024
            let socket = try RawSocket.connected(port: port)
            defer { close(socket) }
            RawSocket.limitWaits(socket)
            let head = "PUT /api/sessions/s1 HTTP/1.1\r\nHost: a\r\nContent-Length: \(bodyBytes)\r\n\r\n"
            let failure = RawSocket.sendAll(socket, Array(head.utf8) + [UInt8](repeating: 0x78, count: bodyBytes))
            #expect(failure == nil, "the whole request is sent (errno \(failure ?? 0): the server reset the connection)")
            let reply = String(decoding: RawSocket.receiveAll(socket), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 503"), "reply: \(reply.prefix(200))")
            let body = try #require(reply.components(separatedBy: "\r\n\r\n").last)
            let error = try JSONDecoder().decode(ErrorBody.self, from: Data(body.utf8))
            #expect(error.error.contains("1 connections open"))
        }
    }

    @Test("A kept-alive connection idle past the timeout is closed; one waiting on its handler is not",
          .timeLimit(.minutes(1)))
    func idleConnectionIsClosed() async throws {
        let release = Signal("the test to release the slow handler")
        let handler = HandlerFunction { request in
            if request.path == "/slow" { try? await release.wait() }
            return .json(["ok": true])
        }
        let server = HTTPServer(
            configuration: .init(port: 0, connectionTimeoutSeconds: 1, headerDeadline: .seconds(30)), handler: handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        let idle = try RawSocket.connected(port: port)
        let busy = try RawSocket.connected(port: port)
        defer {
            close(idle)
            close(busy)
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        for socket in [idle, busy] {
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        _ = "GET /fast HTTP/1.1\r\nHost: a\r\n\r\n".withCString { send(idle, $0, strlen($0), 0) }
        _ = "GET /slow HTTP/1.1\r\nHost: a\r\n\r\n".withCString { send(busy, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        #expect(recv(idle, &buffer, buffer.count, 0) > 0, "the first answer")
        let began = ContinuousClock.now
        #expect(recv(idle, &buffer, buffer.count, 0) == 0, "then the server closes the idle connection")
        #expect(ContinuousClock.now - began < .seconds(5))
        release.fire()
        #expect(recv(busy, &buffer, buffer.count, 0) > 0, "the slow handler's answer still arrives")
        running.cancel()
        try await running.value
    }

    @Test("An over-long URL is a 414 with the error body, never an HTML page")
    func longURLIsJSON() async throws {
        try await withServer(.init(port: 0)) { _, port in
            let path = "/" + String(repeating: "a", count: 9_000)
            let response = try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"))
            #expect(response.status == 414)
            #expect(response.header("content-type") == "application/json")
        }
    }
}
