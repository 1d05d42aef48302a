import FleetCore
import Synchronization

/// The long polls of `GET /api/questions/{id}/wait`: each waiter is a continuation parked until its
/// question stops being pending, or its timeout passes. No thread and no polling per waiter: the HTTP
/// connection is suspended (see HTTPServer) and the task sleeps on the clock.
///
/// Bounded: past ``limit`` waiters a new one is refused (the route answers 503), so a flood of long
/// polls cannot grow memory without end.
public final class QuestionWaiters: Sendable {
    /// One parked waiter: fired once, by its question's resolution, its timeout or its cancellation.
    final class Ticket: Sendable {
        private struct State {
            var isFired = false
            var continuation: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())

        func fire() {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isFired = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }

        /// Returns once fired (at once if it already was), or when the task is cancelled.
        func wait() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let isFired = state.withLock { state in
                        if state.isFired { return true }
                        state.continuation = continuation
                        return false
                    }
                    if isFired { continuation.resume() }
                }
            } onCancel: {
                fire()
            }
        }
    }

    private struct State {
        var tickets: [QuestionID: [ObjectIdentifier: Ticket]] = [:]
        var count = 0
    }

    /// The most waiters parked at once.
    public let limit: Int
    private let state = Mutex(State())

    public init(limit: Int = 10_000) { self.limit = limit }

    /// How many waiters are parked now.
    public var count: Int { state.withLock { $0.count } }

    /// Parks a new waiter on `id`; nil when ``limit`` waiters are already parked.
    func register(_ id: QuestionID) -> Ticket? {
        state.withLock { state in
            guard state.count < limit else { return nil }
            let ticket = Ticket()
            state.tickets[id, default: [:]][ObjectIdentifier(ticket)] = ticket
            state.count += 1
            return ticket
        }
    }

    /// Wakes every waiter on `id`.
    func resolve(_ id: QuestionID) {
        let tickets = state.withLock { state in
            let tickets = state.tickets.removeValue(forKey: id) ?? [:]
            state.count -= tickets.count
            return tickets.values
        }
        for ticket in tickets { ticket.fire() }
    }

    /// Waits until `ticket` fires or `timeout` passes on `clock`, then forgets it.
    func wait(_ ticket: Ticket, on id: QuestionID, timeout: Duration, clock: any Clock<Duration>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await ticket.wait() }
            group.addTask {
                try? await clock.sleep(for: timeout)
                ticket.fire()
            }
            await group.next()
            group.cancelAll()
        }
        state.withLock { state in
            if state.tickets[id]?.removeValue(forKey: ObjectIdentifier(ticket)) != nil {
                state.count -= 1
                if state.tickets[id]?.isEmpty == true { state.tickets[id] = nil }
            }
        }
    }
}
