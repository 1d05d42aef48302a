import Synchronization

/// A test's await took longer than its limit: a hang, named by what was awaited.
public struct TimeLimitExceeded: Error, CustomStringConvertible {
    public let awaited: String
    public let limit: Duration
    public var description: String { "timed out after \(limit) waiting for \(awaited)" }
}

/// How long a test waits on anything outside itself (a server, a child process, a continuation) by default.
/// Generous on purpose: under CPU load a loopback round trip can take seconds, a hang takes forever.
public let defaultTimeLimit: Duration = .seconds(30)

/// Runs `body` and returns its result, or throws ``TimeLimitExceeded`` naming `awaited` once `limit` passes.
///
/// Unlike a task-group race (and Swift Testing's `.timeLimit`), this returns even when `body` never
/// looks at cancellation, for example a checked continuation nobody resumes: `body` runs in its own task,
/// which is cancelled and left behind, so a hang becomes one failing test instead of a stuck suite.
public func bounded<T: Sendable>(
    _ awaited: String, within limit: Duration = defaultTimeLimit,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = Race<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            guard race.arm(continuation) else { return }
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { race.finish(.failure(TimeLimitExceeded(awaited: awaited, limit: limit))) }
            }
            race.onFinish {
                timer.cancel()
                work.cancel()
            }
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of body, timer and cancellation to finish resumes the caller; the others are ignored.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var finished = false
        var cleanup: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    /// Hands the race its caller; false when it already finished (cancelled before it began).
    func arm(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
        return early == nil
    }

    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}
