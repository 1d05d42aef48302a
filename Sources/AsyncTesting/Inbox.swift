import Synchronization

/// Values that arrive from elsewhere (a callback, a child process, a server's stream), taken one at a time,
/// each take bounded by a time limit: the test-side replacement for iterating an `AsyncStream` without end.
public final class Inbox<Element: Sendable>: Sendable {
    private struct State {
        var buffered: [Element] = []
        var isFinished = false
        var waiter: (id: Int, continuation: CheckedContinuation<Element?, Never>)?
        var nextWaiterId = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// An inbox fed by `sequence` from a task of its own, finished when the sequence ends or fails.
    public convenience init<Sequence: AsyncSequence & Sendable>(draining sequence: Sequence) where Sequence.Element == Element {
        self.init()
        Task { [self] in
            do { for try await element in sequence { yield(element) } } catch {}
            finish()
        }
    }

    /// Delivers `element` to the one waiting, or keeps it for the next ``next(_:within:)``.
    public func yield(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            guard let waiter = state.waiter else {
                state.buffered.append(element)
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: element)
    }

    /// No more values: a waiting or later ``next(_:within:)`` returns nil once the buffer is empty.
    public func finish() {
        let waiter = state.withLock { state in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// The next value (nil once finished and empty); throws ``TimeLimitExceeded`` naming `awaited` after `limit`.
    public func next(_ awaited: String, within limit: Duration = defaultTimeLimit) async throws -> Element? {
        try await bounded(awaited, within: limit) { await self.take() }
    }

    private func take() async -> Element? {
        let id = state.withLock { state in
            defer { state.nextWaiterId += 1 }
            return state.nextWaiterId
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let ready = state.withLock { state -> Element?? in
                    if !state.buffered.isEmpty { return .some(state.buffered.removeFirst()) }
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiter = (id, continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            // A take that timed out gives up its place, so the value it would have had goes to the next take.
            let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
    }
}
