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

    /// Runs `suspend`, then queues the request for a handler task (running `accepted` first); returns false
    /// when the server is shutting down (the caller answers the suspended request itself). Neither the suspension nor the
    /// hand-off runs under the lock (both are system calls or wake a thread, and the handler tasks'
    /// `claim` waited on them): queueing and `close()` still agree, because a request recorded before
    /// `close()` is returned by it even when its hand-off comes too late to be read.
    func submit(
        _ context: RequestContext, _ request: HTTPRequest, suspend: () -> Void, accepted: () -> Void
    ) -> Bool {
        suspend()
        let isAccepted = state.withLock { state in
            guard state.isAccepting else { return false }
            state.unclaimed[ObjectIdentifier(context)] = context
            accepted()
            return true
        }
        if isAccepted { continuation.yield(Submission(context: context, request: request)) }
        return isAccepted
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
