import Foundation

/// A serial executor with a thread of its own, for an actor whose calls block the thread they run on
/// (libpq waits for the database's answer on every round trip). Every such actor (the PostgreSQL store,
/// coordinator and leases; `HeldCommitStore` in tests) makes one and returns it as its `unownedExecutor`.
/// (The SQLite store stays a default actor: it never waits on anything but its own file; see its doc.)
///
/// Why: `lfg serve` runs every request's handler on its one event-loop thread (HTTPServer), and a default
/// actor runs its jobs on the executor its caller's task prefers, so a store that was a default actor
/// blocked that thread for each round trip: one slow query (or an unreachable database) stalled every
/// connection, health checks and event streams included. On this executor the caller only hops here and
/// back, and the loop serves other connections meanwhile.
///
/// The thread ends once the executor is released (its actor gone; a queued job holds its actor) and its
/// queue is empty.
public final class BlockingCallExecutor: SerialExecutor, Sendable {
    private let queue = JobQueue()

    /// Starts the executor's thread, named `name` (seen in `top -H`, `perf`, a debugger).
    public init(name: String) {
        let queue = queue
        let thread = Thread { queue.run() }
        thread.name = name
        thread.start()
    }

    deinit { queue.stop() }

    public func enqueue(_ job: consuming ExecutorJob) {
        queue.push(UnownedJob(job), on: asUnownedSerialExecutor())
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// Whether the calling code runs on this executor's thread (what `assumeIsolated` asks).
    public var isCurrent: Bool { queue.isCurrentThread }

    public func checkIsolated() {
        precondition(isCurrent, "expected to run on the thread of the actor's BlockingCallExecutor")
    }

    /// The jobs waiting for the thread, behind a condition variable the thread sleeps on.
    ///
    /// Invariant behind `@unchecked Sendable`: `jobs`, `isStopped` and `thread` are read and written only
    /// with `condition` locked.
    private final class JobQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [(job: UnownedJob, executor: UnownedSerialExecutor)] = []
        private var isStopped = false
        private var thread: Thread?

        func push(_ job: UnownedJob, on executor: UnownedSerialExecutor) {
            condition.lock()
            jobs.append((job, executor))
            condition.signal()
            condition.unlock()
        }

        func stop() {
            condition.lock()
            isStopped = true
            condition.signal()
            condition.unlock()
        }

        var isCurrentThread: Bool {
            condition.lock()
            defer { condition.unlock() }
            return thread === Thread.current
        }

        /// The thread's body: runs the jobs as they come, in order, until stopped and empty.
        func run() {
            condition.lock()
            thread = Thread.current
            condition.unlock()
            var batch: [(job: UnownedJob, executor: UnownedSerialExecutor)] = []
            while true {
                condition.lock()
                while jobs.isEmpty, !isStopped { condition.wait() }
                if jobs.isEmpty {
                    // The thread's closure holds this queue: let go of the thread, or neither is ever freed.
                    thread = nil
                    condition.unlock()
                    return
                }
                swap(&batch, &jobs)
                condition.unlock()
                for (job, executor) in batch { job.runSynchronously(on: executor) }
                batch.removeAll(keepingCapacity: true)
            }
        }
    }
}
