/// The session changes waiting for the service's lock, and the answers of committed groups not yet
/// picked up by their requests. Used only inside the ``ControlPlaneService``'s `Mutex` around it (a
/// continuation resumed in there only enqueues its task; nothing runs under the lock).
struct SessionChangeQueue {
    typealias Answer = Result<SessionListing, ServiceError>

    /// Changes in arrival order, each with the ticket its request waits on.
    private(set) var waiting: [(ticket: Int, change: SessionChangeGroup.Change)] = []
    private var nextTicket = 0
    private var answers: [Int: Answer] = [:]
    private var answerWaiters: [Int: CheckedContinuation<Answer, Never>] = [:]
    private var lengthWaiters: [(length: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Queues `change`; returns its ticket and whether it is the first of a new group (its request leads
    /// the group: it takes the lock and commits everything queued by then).
    mutating func enqueue(_ change: SessionChangeGroup.Change) -> (ticket: Int, isLeader: Bool) {
        let ticket = nextTicket
        nextTicket += 1
        waiting.append((ticket, change))
        let reached = lengthWaiters.filter { $0.length <= waiting.count }
        lengthWaiters.removeAll { $0.length <= waiting.count }
        for waiter in reached { waiter.continuation.resume() }
        return (ticket, waiting.count == 1)
    }

    /// Takes every queued change: the group to commit now.
    mutating func takeGroup() -> [(ticket: Int, change: SessionChangeGroup.Change)] {
        defer { waiting.removeAll() }
        return waiting
    }

    /// Hands `answer` to the request holding `ticket` (now, or when it asks).
    mutating func answer(_ ticket: Int, _ answer: Answer) {
        if let waiter = answerWaiters.removeValue(forKey: ticket) {
            waiter.resume(returning: answer)
        } else {
            answers[ticket] = answer
        }
    }

    /// The answer for `ticket` when it is already known; otherwise registers `continuation` for it.
    mutating func answer(for ticket: Int, orWait continuation: CheckedContinuation<Answer, Never>) {
        if let answer = answers.removeValue(forKey: ticket) {
            continuation.resume(returning: answer)
        } else {
            answerWaiters[ticket] = continuation
        }
    }

    /// Resumes `continuation` once at least `length` changes are queued.
    mutating func notify(whenLength length: Int, _ continuation: CheckedContinuation<Void, Never>) {
        if waiting.count >= length {
            continuation.resume()
        } else {
            lengthWaiters.append((length, continuation))
        }
    }
}
