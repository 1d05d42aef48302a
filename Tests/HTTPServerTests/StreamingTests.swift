import AsyncTesting
import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
import Synchronization
import Testing

/// A server-sent-events producer the test drives by hand.
final class EventSource: Sendable {
    let stream: AsyncStream<Data>
    let continuation: AsyncStream<Data>.Continuation
    let terminated = Signal("the event source's stream to be terminated")

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.onTermination = { [terminated] _ in terminated.fire() }
    }

    func send(event: String) { continuation.yield(Data("data: \(event)\n\n".utf8)) }

    /// A handler that answers every request with this source's stream as server-sent events.
    var handler: HandlerFunction {
        let stream = stream
        return HandlerFunction { _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
        }
    }
}

@Suite struct StreamingTests {
    let client = HTTPClient()

    @Test("Server-sent events arrive in order and the stream ends when the producer finishes")
    func eventsArriveInOrder() async throws {
        let source = EventSource()
        try await withServer(handler: source.handler) { base in
            let stream = try await client.openStream(HTTPClientRequest(url: "\(base)/events"))
            #expect(stream.status == 200)
            #expect(stream.header("content-type") == "text/event-stream")
            for index in 1...3 { source.send(event: "e\(index)") }
            source.continuation.finish()
            let lines = try await bounded("the stream's three events and its end") {
                var lines: [String] = []
                for try await line in stream.lines where !line.isEmpty { lines.append(line) }
                return lines
            }
            #expect(lines == ["data: e1", "data: e2", "data: e3"])
        }
    }

    @Test("When the client disconnects, the producer's stream is terminated")
    func disconnectTerminatesProducer() async throws {
        let source = EventSource()
        try await withServer(handler: source.handler) { base in
            let stream = try await client.openStream(HTTPClientRequest(url: "\(base)/events"))
            source.send(event: "first")
            let first = try await bounded("the stream's first line") {
                var iterator = stream.lines.makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(first == "data: first")
            stream.cancel()
            // A suspended connection learns of the disconnect on its next write; this one needs many writes.
            source.continuation.yield(Data(count: 8 * 1024 * 1024))
            try await source.terminated.wait()
        }
    }

    @Test("Cancelling the server finishes an open stream and run() returns")
    func shutdownEndsOpenStreams() async throws {
        let source = EventSource()
        let server = HTTPServer(configuration: .init(port: 0), handler: source.handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        let stream = try await client.openStream(HTTPClientRequest(url: "http://127.0.0.1:\(port)/events"))
        source.send(event: "only")
        running.cancel()
        let lines = try await bounded("the open stream to end when the server stops") {
            var lines: [String] = []
            for try await line in stream.lines where !line.isEmpty { lines.append(line) }
            return lines
        }
        try await bounded("the cancelled server's run() to return") { try await running.value }
        #expect(lines == ["data: only"])
        try await source.terminated.wait()
    }

    @Test("A stream that outlives its client ends, and cancelling it afterwards is harmless")
    func streamOutlivesClient() async throws {
        let source = EventSource()
        try await withServer(handler: source.handler) { base in
            var stream: HTTPClientStream?
            do {
                let shortLived = HTTPClient()
                stream = try await shortLived.openStream(HTTPClientRequest(url: "\(base)/events"))
            }
            let opened = try #require(stream)
            var lines: [String] = []
            for try await line in opened.lines { lines.append(line) }
            opened.cancel()
            source.continuation.finish()
            #expect(lines.isEmpty)
        }
    }
}
