import HTTPTypes
import Synchronization

/// Hands requests from libmicrohttpd's threads to the server's run loop, and lets shutdown answer
/// the ones no task has picked up yet (a suspended connection left alone would hang `MHD_stop_daemon`).
final class Admission: Sendable {
    private struct State {
        var isAccepting = true
        var unclaimed: [ObjectIdentifier: RequestContext] = [:]
    }

    /// A parsed request waiting for a handler task.
    struct Submission: Sendable {
        let context: RequestContext
        let request: HTTPRequest
    }

    let submissions: AsyncStream<Submission>
    private let continuation: AsyncStream<Submission>.Continuation
    private let state = Mutex(State())

    init() {
        (submissions, continuation) = AsyncStream.makeStream(of: Submission.self)
    }

    /// Runs `suspend` and queues the request for a handler task, atomically with respect to `close()`;
    /// returns false when the server is shutting down (answer the request directly instead).
    func submit(_ context: RequestContext, _ request: HTTPRequest, suspend: () -> Void) -> Bool {
        state.withLock { state in
            guard state.isAccepting else { return false }
            suspend()
            state.unclaimed[ObjectIdentifier(context)] = context
            continuation.yield(Submission(context: context, request: request))
            return true
        }
    }

    /// Takes `context` for a handler task; false when shutdown already answered it.
    func claim(_ context: RequestContext) -> Bool {
        state.withLock { $0.unclaimed.removeValue(forKey: ObjectIdentifier(context)) != nil }
    }

    /// Stops accepting and returns the requests that are suspended but were never claimed.
    func close() -> [RequestContext] {
        state.withLock { state in
            state.isAccepting = false
            continuation.finish()
            defer { state.unclaimed.removeAll() }
            return Array(state.unclaimed.values)
        }
    }
}
