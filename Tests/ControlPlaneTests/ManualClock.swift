import AsyncTesting
import Synchronization

/// A clock whose time moves only when a test calls ``advance(by:)``; tests await sleepers instead of sleeping.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextId = 0
        var watchers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (isDue, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled || deadline <= state.now { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let ready = state.watchers.filter { $0.deadline == deadline }.map(\.continuation)
                    state.watchers.removeAll { $0.deadline == deadline }
                    return (false, ready)
                }
                if isDue {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
                for watcher in watchers { watcher.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline came.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once something sleeps until exactly `deadline`; throws ``TimeLimitExceeded`` if nothing does in time.
    func waitForSleeper(until deadline: Instant, within limit: Duration = defaultTimeLimit) async throws {
        try await bounded("a sleeper until \(deadline.offset)", within: limit) { await self.sleeper(until: deadline) }
    }

    private func sleeper(until deadline: Instant) async {
        await withCheckedContinuation { continuation in
            let isThere = state.withLock { state in
                if state.sleepers.contains(where: { $0.deadline == deadline }) { return true }
                state.watchers.append((deadline, continuation))
                return false
            }
            if isThere { continuation.resume() }
        }
    }
}
