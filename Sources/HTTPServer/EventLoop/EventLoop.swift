internal import CEpoll
internal import Glibc
import Synchronization

/// One server thread: an epoll set of connections (and the shared listening socket), and a Swift
/// `TaskExecutor` whose jobs run on the same thread between `epoll_wait` calls.
///
/// A complete request becomes a task that prefers this executor, so the handler, and every default
/// actor it awaits, run on this thread, and the answer is written by the thread that read the request:
/// no lock, no wake-up, no thread hand-off on the common path (read, handle, write, read again).
/// Work that resumes from elsewhere (a continuation resumed on another thread, a commit on another
/// loop) is queued in ``inbox`` and the thread is woken through an eventfd, only when it sleeps.
///
/// Invariant behind `@unchecked Sendable`: everything but ``inbox``, ``isSleeping``, ``owner`` and the
/// descriptors is touched only on the loop's own thread (checked by ``isCurrent``); ``inbox`` is a mutex.
final class EventLoop: TaskExecutor, @unchecked Sendable {
    /// Jobs and calls handed over from other threads.
    private struct Inbox {
        var jobs: [UnownedJob] = []
        var calls: [@Sendable () -> Void] = []
        /// The loop has ended; late jobs go to the global executor.
        var isStopped = false
    }

    let core: ServerCore
    let epoll: Int32
    let listener: Int32
    private let wakeup: Int32
    private let inbox = Mutex(Inbox())
    /// Whether the thread is (about to be) blocked in `epoll_wait`; a hand-over then writes the eventfd.
    private let isSleeping = Atomic<Bool>(false)
    /// The loop thread's `pthread_self()`, once it runs.
    private let owner = Atomic<UInt>(0)
    private var thread = pthread_t()
    /// Fires when the loop has ended (every connection closed, every task it started finished).
    let finished = Latch()

    // Loop-thread state.
    private var localJobs: [UnownedJob] = []
    var connections: [Int32: Connection] = [:]
    /// Every loop of the server (this one included), set before the threads start; accepted
    /// connections are dealt round them.
    var siblings: [EventLoop] = []
    var nextSibling = 0
    var nextConnectionID: UInt64 = 0
    /// Tasks started on this loop that have not delivered their end yet.
    var liveTasks = 0
    /// Handlers still at work for connections that closed, by connection id (cancelled if the server stops).
    var orphanedHandlers: [UInt64: Task<Void, Never>] = [:]
    var isShuttingDown = false
    var isAcceptPaused = false
    var nextTimerCheck: ContinuousClock.Instant
    var date = HTTPDate()
    /// Where reads land before they are appended to a connection's input.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Makes the loop's epoll set and eventfd, watching `listener`; nil when the system refuses.
    init?(core: ServerCore, listener: Int32) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let wakeup = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard epoll >= 0, wakeup >= 0 else {
            if epoll >= 0 { close(epoll) }
            if wakeup >= 0 { close(wakeup) }
            return nil
        }
        self.core = core
        self.epoll = epoll
        self.wakeup = wakeup
        self.listener = listener
        nextTimerCheck = .now
        guard watch(wakeup, events: EPOLLIN.rawValue), watchListener() else {
            close(epoll)
            close(wakeup)
            return nil
        }
    }

    deinit {
        close(epoll)
        close(wakeup)
        readBuffer.deallocate()
    }

    /// Starts the loop's thread.
    func start() -> Bool {
        let retained = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }, retained)
        if created != 0 { Unmanaged<EventLoop>.fromOpaque(retained).release() }
        return created == 0
    }

    /// Waits for the thread to exit; call after ``finished`` fired.
    func join() { pthread_join(thread, nil) }

    var isCurrent: Bool { owner.load(ordering: .relaxed) == pthread_self() }

    // MARK: TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isCurrent {
            localJobs.append(job)
            return
        }
        let isAccepted = inbox.withLock { inbox in
            guard !inbox.isStopped else { return false }
            inbox.jobs.append(job)
            return true
        }
        if isAccepted { wake() } else { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Runs `body` on the loop's thread: at once when called there, else queued and the loop woken.
    /// Returns false, dropping `body`, when the loop has ended.
    @discardableResult
    func onLoop(_ body: @escaping @Sendable () -> Void) -> Bool {
        if isCurrent {
            body()
            return true
        }
        let isAccepted = inbox.withLock { inbox in
            guard !inbox.isStopped else { return false }
            inbox.calls.append(body)
            return true
        }
        if isAccepted { wake() }
        return isAccepted
    }

    private func wake() {
        guard isSleeping.exchange(false, ordering: .sequentiallyConsistent) else { return }
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: The loop

    private func run() {
        owner.store(pthread_self(), ordering: .relaxed)
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while true {
            runQueuedWork()
            if isShuttingDown, connections.isEmpty, liveTasks == 0, stopIfIdle() { break }
            var timeout = millisecondsUntilTimerCheck()
            if !localJobs.isEmpty {
                timeout = 0
            } else {
                isSleeping.store(true, ordering: .sequentiallyConsistent)
                if inbox.withLock({ !$0.jobs.isEmpty || !$0.calls.isEmpty }) { timeout = 0 }
            }
            let count = epoll_wait(epoll, events, Int32(capacity), timeout)
            isSleeping.store(false, ordering: .relaxed)
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                let socket = event.data.fd
                if socket == wakeup {
                    var value: UInt64 = 0
                    _ = read(wakeup, &value, MemoryLayout<UInt64>.size)
                } else if socket == listener {
                    acceptConnections()
                } else {
                    connectionEvent(socket, events: event.events)
                }
            }
            checkTimers()
        }
        // Thread ids are reused: a later thread must not pass for this one in `isCurrent`.
        owner.store(0, ordering: .relaxed)
        siblings = []  // the loops refer to each other; this ends the cycle, so their descriptors close
        finished.fire()
    }

    /// Runs handed-over calls and jobs, then this thread's own jobs (and those they queue), a bounded batch.
    private func runQueuedWork() {
        let handed = inbox.withLock { inbox -> ([UnownedJob], [@Sendable () -> Void])? in
            guard !inbox.jobs.isEmpty || !inbox.calls.isEmpty else { return nil }
            defer {
                inbox.jobs.removeAll()
                inbox.calls.removeAll()
            }
            return (inbox.jobs, inbox.calls)
        }
        if let (jobs, calls) = handed {
            for call in calls { call() }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        var rounds = 0
        var batch: [UnownedJob] = []
        while !localJobs.isEmpty, rounds < 64 {
            swap(&batch, &localJobs)
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
            rounds += 1
        }
    }

    /// Marks the loop stopped when nothing was handed over meanwhile; later jobs go to the global executor.
    private func stopIfIdle() -> Bool {
        inbox.withLock { inbox in
            guard inbox.jobs.isEmpty, inbox.calls.isEmpty, localJobs.isEmpty else { return false }
            inbox.isStopped = true
            return true
        }
    }

    private func millisecondsUntilTimerCheck() -> Int32 {
        let remaining = nextTimerCheck - ContinuousClock.now
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(min(seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1, 1_000))
    }

    /// Adds `socket` to the epoll set; false when the system refuses.
    @discardableResult
    func watch(_ socket: Int32, events: UInt32) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.fd = socket
        return epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0
    }

    /// Watches the listening socket; every loop does, and `EPOLLEXCLUSIVE` wakes only one per connection.
    @discardableResult
    func watchListener() -> Bool { watch(listener, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue) }

    func unwatchListener() {
        var event = epoll_event()
        epoll_ctl(epoll, EPOLL_CTL_DEL, listener, &event)
    }
}
