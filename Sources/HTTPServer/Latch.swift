import Synchronization

/// A one-shot signal: `wait()` returns once `fire()` has been called (at once if it already was).
/// Used for "this event loop has ended", which happens on the loop's own thread.
final class Latch: Sendable {
    private let state = Mutex<(isFired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { state in
            state.isFired = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isFired = state.withLock { state in
                if !state.isFired { state.waiters.append(continuation) }
                return state.isFired
            }
            if isFired { continuation.resume() }
        }
    }
}
