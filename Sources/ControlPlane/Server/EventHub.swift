import Foundation
import Synchronization

/// The server-sent events of `GET /api/events`: every subscriber gets every event from when it subscribed.
public final class EventHub: Sendable {
    private struct State {
        var nextId = 0
        var subscribers: [Int: AsyncStream<Data>.Continuation] = [:]
        /// Who opened each tagged stream (a paired device's credential id), so revoking it ends them.
        var tags: [Int: String] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// A stream of SSE-framed events; it starts with a comment so clients see the stream open.
    /// - Parameter tag: who opened it, for ``finish(tag:)`` (a paired device's credential id).
    public func subscribe(tag: String? = nil) -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1024))
        let id = state.withLock { state in
            defer { state.nextId += 1 }
            state.subscribers[state.nextId] = continuation
            state.tags[state.nextId] = tag
            return state.nextId
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers.removeValue(forKey: id)
                state.tags.removeValue(forKey: id)
            }
        }
        continuation.yield(Data(": connected\n\n".utf8))
        return stream
    }

    /// Sends `event` with one line of JSON `data` to every subscriber.
    public func publish(_ event: String, json: Data) {
        publish(event, encoding: { json })
    }

    /// Sends `event` to every subscriber, calling `json` for its one line of JSON data only when at
    /// least one stream is open.
    ///
    /// Why: every `PUT /api/sessions` publishes a `session` event, and encoding it was a tenth of the
    /// server's time under ingest load (bench/ingest.sh) while, most of the time, no dashboard listens.
    public func publish(_ event: String, encoding json: () -> Data) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        guard !subscribers.isEmpty else { return }
        var frame = Data("event: \(event)\ndata: ".utf8)
        frame.append(json())
        frame.append(contentsOf: Array("\n\n".utf8))
        for subscriber in subscribers { subscriber.yield(frame) }
    }

    /// How often every open stream gets a keepalive comment (``heartbeat()``).
    public static let heartbeatInterval = Duration.seconds(15)

    /// Sends an SSE comment line (`: keepalive`) to every subscriber.
    ///
    /// Why: a closed browser tab is only noticed when something is written to its connection; without
    /// this a quiet fleet would keep the connection (and its subscription) until the next event. A
    /// subscriber whose stream already ended is dropped here too.
    public func heartbeat() {
        let frame = Data(": keepalive\n\n".utf8)
        let subscribers = state.withLock { Array($0.subscribers) }
        var ended: [Int] = []
        for (id, subscriber) in subscribers {
            if case .terminated = subscriber.yield(frame) { ended.append(id) }
        }
        guard !ended.isEmpty else { return }
        state.withLock { state in for id in ended { state.subscribers.removeValue(forKey: id) } }
    }

    /// Ends the streams opened with `tag` (a revoked device's: its next call, the reconnect, gets 401).
    public func finish(tag: String) {
        let subscribers = state.withLock { state in
            state.tags.filter { $0.value == tag }.compactMap { state.subscribers[$0.key] }
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Ends every stream (shutdown).
    public func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
