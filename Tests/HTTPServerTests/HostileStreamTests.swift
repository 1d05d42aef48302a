import Foundation
import HTTPServer
import HTTPTypes
import Synchronization
import Testing

/// A hub of event streams like `/api/events`: every request subscribes; counts the live subscribers.
final class SubscriberCounter: Sendable {
    private struct State {
        var subscribed = 0
        var live: [Int: AsyncStream<Data>.Continuation] = [:]
        var waiters: [(isDone: @Sendable (State) -> Bool, signal: Signal)] = []
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.live.count } }

    /// Sends `chunk` to every subscriber.
    func publish(_ chunk: Data) {
        for subscriber in state.withLock({ Array($0.live.values) }) { subscriber.yield(chunk) }
    }

    /// Returns once `total` subscriptions were made in all.
    func waitUntilSubscribed(_ total: Int) async throws {
        try await wait("\(total) subscriptions") { $0.subscribed >= total }
    }

    /// Returns once no subscriber is left.
    func waitUntilEmpty() async throws { try await wait("every subscriber released") { $0.live.isEmpty } }

    private func wait(_ awaited: String, until isDone: @escaping @Sendable (State) -> Bool) async throws {
        let signal = Signal(awaited)
        let isDoneNow = state.withLock { state in
            if isDone(state) { return true }
            state.waiters.append((isDone, signal))
            return false
        }
        if !isDoneNow { try await signal.wait() }
    }

    private func change(_ body: (inout State) -> Void) {
        let ready = state.withLock { state in
            body(&state)
            let snapshot = state
            let ready = state.waiters.filter { $0.isDone(snapshot) }.map(\.signal)
            state.waiters.removeAll { $0.isDone(snapshot) }
            return ready
        }
        for signal in ready { signal.fire() }
    }

    var handler: HandlerFunction {
        HandlerFunction { [self] _ in
            let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
            var id = 0
            change { state in
                id = state.subscribed
                state.subscribed += 1
                state.live[id] = continuation
            }
            continuation.onTermination = { [self, id] _ in change { _ = $0.live.removeValue(forKey: id) } }
            continuation.yield(Data(": connected\n\n".utf8))
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
        }
    }
}

@Suite struct HostileStreamTests {
    @Test("An event stream closed before its answer releases its subscriber, and shutdown still finishes",
          .timeLimit(.minutes(1)))
    func abandonedStreamsAreReleased() async throws {
        let hub = SubscriberCounter()
        let server = HTTPServer(configuration: .init(port: 0), handler: hub.handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        for _ in 0..<50 {
            try RawSocket.sendAndClose(port: port, bytes: "GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n")
        }
        try await hub.waitUntilSubscribed(50)
        // Events keep coming, as PUTs would send them; each abandoned stream must end, not buffer them.
        hub.publish(Data(repeating: UInt8(ascii: "x"), count: 30 * 1024))
        try await hub.waitUntilEmpty()
        running.cancel()
        try await running.value
    }

    @Test("A reader that never reads is dropped once it falls a bounded amount behind", .timeLimit(.minutes(1)))
    func slowReaderIsDropped() async throws {
        let hub = SubscriberCounter()
        let server = HTTPServer(configuration: .init(port: 0, maxStreamBufferBytes: 256 * 1024), handler: hub.handler)
        let port = try server.start()
        let running = Task { try await server.run() }
        let sockets = try (0..<5).map { _ in
            try RawSocket.sendWithoutReading(port: port, bytes: "GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        defer { for socket in sockets { close(socket) } }
        try await hub.waitUntilSubscribed(5)
        // 400 x 60 KB = 24 MB per reader would be buffered without a bound; with it each is dropped early.
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 60 * 1024)
        for _ in 0..<400 where hub.count > 0 {
            hub.publish(chunk)
            await Task.yield()
        }
        try await hub.waitUntilEmpty()
        running.cancel()
        try await running.value
    }
}
