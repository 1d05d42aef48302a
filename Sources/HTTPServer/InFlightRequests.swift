import Synchronization

/// The requests handed to handler tasks that libmicrohttpd has not completed yet (the answer is not sent,
/// or the client is not known gone).
///
/// A task with a whole-body answer ends as soon as it has resumed its connection, without waiting for
/// libmicrohttpd to send it (one thread hand-off less per request). Shutdown waits here instead: stopping
/// the daemon while an answer is queued but unsent would drop an answer the handler already gave.
final class InFlightRequests: Sendable {
    private let state = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    /// A request was handed to a handler task (its connection suspended).
    func began() { state.withLock { $0.count += 1 } }

    /// libmicrohttpd completed a request that `began()`.
    func ended() {
        let waiters = state.withLock { state in
            state.count -= 1
            guard state.count == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once every request that began has ended (at once when none is in flight).
    func waitUntilNone() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isNone = state.withLock { state in
                if state.count > 0 { state.waiters.append(continuation) }
                return state.count == 0
            }
            if isNone { continuation.resume() }
        }
    }
}
