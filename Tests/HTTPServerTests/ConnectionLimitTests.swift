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
