import AsyncTesting
import Foundation
@testable import HTTPServer
import HTTPTypes
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A handler's answer may still be on its way out when the server is told to stop; stopping must still
/// wait until every answer given is sent.
@Suite struct ShutdownTests {
    /// Larger than loopback's socket buffers, so sending it takes as long as the client takes to read it.
    static let answerBytes = 16 * 1024 * 1024

    @Test("An answer given while the server stops is sent whole before run() returns", .timeLimit(.minutes(1)))
    func answerGivenDuringShutdownIsSentWhole() async throws {
        let entered = Signal("the handler to start")
        let release = Signal("the test to release the handler")
        let handler = HandlerFunction { _ in
            entered.fire()
            try? await release.wait()
            return HTTPResponse(status: 200, body: .bytes(Data(count: Self.answerBytes)))
        }
        let server = HTTPServer(configuration: .init(port: 0), handler: handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        let socket = try RawSocket.connected(port: port, receiveBuffer: 4_096)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }
        try await entered.wait()
        running.cancel()
        release.fire()
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += count
        }
        try await bounded("the cancelled server's run() to return") { try await running.value }
        #expect(received > Self.answerBytes)  // the headers, then every byte of the body
    }

    @Test("A reader that stopped reading its answer holds the shutdown for the drain, not the idle timeout",
          .timeLimit(.minutes(1)))
    func stalledReaderIsClosedAfterTheDrain() async throws {
        let answering = Signal("the handler to answer")
        let handler = HandlerFunction { _ in
            answering.fire()
            return HTTPResponse(status: 200, body: .bytes(Data(count: Self.answerBytes)))
        }
        let server = HTTPServer(
            configuration: .init(port: 0, connectionTimeoutSeconds: 600, shutdownDrain: .milliseconds(200)),
            handler: handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        let socket = try RawSocket.sendWithoutReading(port: port, bytes: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { close(socket) }
        RawSocket.limitWaits(socket)
        try await answering.wait()
        running.cancel()
        // Without the drain, the stalled connection is closed only by the 600 s idle timeout.
        try await bounded("the cancelled server's run() to return", within: .seconds(20)) { try await running.value }
        let received = RawSocket.receiveAll(socket).count
        #expect(received > 0 && received < Self.answerBytes, "the answer was cut: \(received) bytes")
    }

    @Test("Once the server is told to stop, a request read by a loop that has not begun its shutdown yet is answered 503",
          .timeLimit(.minutes(1)))
    func requestReadBeforeItsLoopStopsIsRefused() async throws {
        // The handler of /block holds its loop's thread in a blocking read until the test writes a byte,
        // so the loop cannot begin its shutdown before it has read what arrived meanwhile.
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        defer { for end in pipeEnds { close(end) } }
        let blocking = Signal("the blocking handler to start")
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        let handler = HandlerFunction { request in
            if request.path == "/block" {
                blocking.fire()
                var byte: UInt8 = 0
                _ = read(readEnd, &byte, 1)
            }
            return .json(["ok": true])
        }
        let server = HTTPServer(configuration: .init(port: 0, threadPoolSize: 1), handler: handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        let waiting = try RawSocket.connected(port: port)
        defer { close(waiting) }
        RawSocket.limitWaits(waiting)
        let deadline = ContinuousClock.now + .seconds(10)
        while server.connectionCounts.open < 1, ContinuousClock.now < deadline { await Task.yield() }
        try #require(server.connectionCounts.open == 1, "the server accepted the waiting connection")
        let blocked = try RawSocket.connected(port: port)
        defer { close(blocked) }
        _ = "GET /block HTTP/1.1\r\nHost: x\r\n\r\n".withCString { send(blocked, $0, strlen($0), 0) }
        try await blocking.wait()
        // Arrives while the loop is held: read only after the server was told to stop.
        _ = "GET /x HTTP/1.1\r\nHost: x\r\n\r\n".withCString { send(waiting, $0, strlen($0), 0) }
        running.cancel()
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
        let reply = String(decoding: RawSocket.receiveAll(waiting), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 503"), "reply: \(reply.prefix(120))")
        try await bounded("the cancelled server's run() to return") { try await running.value }
    }
}

/// Weak references to what a server held, to check it was all released.
final class WeakLoop {
    weak var loop: EventLoop?
    init(_ loop: EventLoop) { self.loop = loop }
}

@Suite struct ShutdownResourceTests {
    /// What `/proc/self/fd/<descriptor>` names (e.g. `socket:[123]`, unique per socket), or nil when closed.
    static func target(of descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    @Test("A server that served and stopped leaves no descriptor open and no event loop alive",
          .timeLimit(.minutes(1)))
    func noDescriptorLeftBehind() async throws {
        var loops: [WeakLoop] = []
        var listener: (descriptor: Int32, target: String?) = (-1, nil)
        do {
            let server = HTTPServer(
                configuration: .init(port: 0, threadPoolSize: 3), handler: HandlerFunction { _ in .json(["ok": true]) })
            let port = try server.start()
            let resources = try #require(server.resources)
            loops = resources.loops.map(WeakLoop.init)
            listener = (resources.listener, Self.target(of: resources.listener))
            let running = Task { try await server.run() }
            for _ in 0..<6 {
                let reply = try RawSocket.exchange(port: port, bytes: "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
            }
            let idle = try RawSocket.connected(port: port)
            defer { close(idle) }
            running.cancel()
            try await bounded("the cancelled server's run() to return") { try await running.value }
        }
        #expect(loops.count == 3)
        // A loop's epoll set and eventfd close when it is released (its deinit).
        #expect(loops.allSatisfy { $0.loop == nil }, "every event loop released")
        #expect(listener.target?.hasPrefix("socket:") == true)
        #expect(Self.target(of: listener.descriptor) != listener.target, "the listening socket is closed")
    }
}
