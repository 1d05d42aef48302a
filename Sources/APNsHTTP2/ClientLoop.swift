import APNs
import Dispatch
import FleetCore
import HTTP2Wire
import Synchronization

/// The transport's loop: owns every connection, routes pushes to their endpoint's connection,
/// resends unanswered ones, and answers callers. Runs on one dedicated thread.
final class ClientLoop {
    final class Pool {
        let endpoint: Endpoint
        var queue: [PushJob] = []
        var current: ClientConnection?
        var retiring: [ClientConnection] = []
        init(endpoint: Endpoint) { self.endpoint = endpoint }
        var connections: [ClientConnection] { (current.map { [$0] } ?? []) + retiring }
    }

    let options: HTTP2PushSender.Options
    let tls: TLSContext?
    let tokens: ProviderTokenCache?
    let shared: HTTP2PushSender.Shared
    var pools: [PushEnvironment: Pool] = [:]

    init(options: HTTP2PushSender.Options, tls: TLSContext?, tokens: ProviderTokenCache?, shared: HTTP2PushSender.Shared) {
        self.options = options
        self.tls = tls
        self.tokens = tokens
        self.shared = shared
        var byEndpoint: [Endpoint: Pool] = [:]
        for (environment, endpoint) in options.endpoints {
            let pool = byEndpoint[endpoint] ?? Pool(endpoint: endpoint)
            byEndpoint[endpoint] = pool
            pools[environment] = pool
        }
    }

    func run() {
        while !shared.isStopping {
            for job in shared.takeInbox() { route(job) }
            for pool in uniquePools { feed(pool) }
            handOverAnswers()  // before sleeping in poll: answers collected while feeding must not wait
            var polls = PollSet()
            polls.add(shared.wakeup.descriptor, read: true, write: false)
            var polled: [(Pool, ClientConnection)] = []
            for pool in uniquePools {
                for connection in pool.connections {
                    polls.add(connection.descriptor, read: true, write: connection.pollsForWrite)
                    polled.append((pool, connection))
                }
            }
            // Wake 4 times a second only while something waits for an answer (to check timeouts).
            let isWaiting = polled.contains { $0.1.inFlightCount > 0 || !$0.1.isConnected }
            polls.wait(timeoutMilliseconds: isWaiting ? 250 : -1)
            if polls.isReadable(0) { shared.wakeup.drain() }
            for (index, (pool, connection)) in polled.enumerated()
            where polls.isReadable(index + 1) || polls.isWritable(index + 1) {
                connection.service()
                collect(from: connection, into: pool)
            }
            for pool in uniquePools { expireSlowConnections(pool) }
            handOverAnswers()
        }
        shutdown()
    }

    /// Answers collected this round, resumed together off this thread (see ``handOverAnswers()``).
    private var answered: [(PushJob, PushResponse)] = []

    /// Resumes the callers of this round's answers on a worker thread, in one block: resuming costs
    /// the loop thread a scheduler wake-up per push otherwise, and the loop is the transport's bottleneck.
    /// The block owns nothing but the answers, and every one of them is delivered exactly once.
    private func handOverAnswers() {
        guard !answered.isEmpty else { return }
        let batch = answered
        answered.removeAll(keepingCapacity: true)
        DispatchQueue.global().async {
            for (job, response) in batch { job.finish(response) }
        }
    }

    private var uniquePools: [Pool] {
        var seen = Set<ObjectIdentifier>()
        return pools.values.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    private func route(_ job: PushJob) {
        guard let pool = pools[job.request.environment] else {
            job.finish(.transportFailed(TransportFailure(.connectFailed, "no APNs URL is configured for \(job.request.environment.rawValue) tokens")))
            return
        }
        pool.queue.append(job)
    }

    /// Opens a connection when pushes wait and none can take them, then puts as many on the wire as it allows.
    private func feed(_ pool: Pool) {
        if let current = pool.current, current.isEnded || current.isGoingAway {
            pool.current = nil
            if !current.isEnded { pool.retiring.append(current) }
        }
        pool.retiring.removeAll { $0.isEnded || $0.inFlightCount == 0 && $0.isGoingAway && closeIdle($0) }
        guard !pool.queue.isEmpty else { return }
        if pool.current == nil {
            do {
                pool.current = try ClientConnection(endpoint: pool.endpoint, tls: pool.endpoint.isTLS ? tls : nil)
                shared.connectionOpened()
            } catch {
                failQueue(pool, TransportFailure(.connectFailed, "cannot connect to \(pool.endpoint): \(error)"))
                return
            }
        }
        guard let connection = pool.current else { return }
        var capacity = connection.capacity(cap: options.maxConcurrentStreams)
        var taken = 0
        while capacity > 0, taken < pool.queue.count {
            let job = pool.queue[taken]
            var providerToken: String?
            if let tokens {
                do {
                    providerToken = try tokens.token()
                } catch {
                    taken += 1
                    job.finish(.transportFailed(TransportFailure(.signingFailed, "cannot sign the provider token: \(error)")))
                    continue
                }
            }
            guard connection.submit(job, providerToken: providerToken) else { break }
            taken += 1
            capacity -= 1
        }
        if taken > 0 {
            pool.queue.removeFirst(taken)
            connection.service()
            collect(from: connection, into: pool)
        }
    }

    private func closeIdle(_ connection: ClientConnection) -> Bool {
        connection.close(reason: "retired after GOAWAY", kind: .goAway)
        return true
    }

    /// Answers callers for completed pushes; resends unanswered ones within the attempt budget.
    private func collect(from connection: ClientConnection, into pool: Pool) {
        var resend: [PushJob] = []
        for answer in connection.answered {
            let job = answer.job
            // `Shutdown`, `IdleTimeout`, `UnrelatedKeyIdInToken`: this connection is done; the next push gets a new one.
            if answer.response.remedy == .reconnect { connection.retire() }
            if answer.response.reason == .expiredProviderToken, let tokens, let used = answer.providerToken,
                !job.hasRefreshedToken
            {
                tokens.tokenExpired(used)
                job.hasRefreshedToken = true
                resend.append(job)
            } else {
                answered.append((job, answer.response))
            }
        }
        connection.answered.removeAll(keepingCapacity: true)
        for (job, failure) in connection.unanswered {
            if job.attempts < options.maximumAttempts {
                resend.append(job)
            } else {
                job.finish(.transportFailed(failure))
            }
        }
        let neverOpened = connection.isEnded && !connection.hasOpened
        connection.unanswered.removeAll(keepingCapacity: true)
        if !resend.isEmpty { pool.queue.insert(contentsOf: resend, at: 0) }
        if neverOpened, pool.current === connection {
            pool.current = nil
            failQueue(pool, TransportFailure(.connectFailed, connection.wire.endReason ?? "cannot connect to \(pool.endpoint)"))
        }
    }

    private func failQueue(_ pool: Pool, _ failure: TransportFailure) {
        for job in pool.queue { job.finish(.transportFailed(failure)) }
        pool.queue.removeAll()
    }

    /// A connection whose oldest push has waited past the timeout is presumed dead: close it, resend.
    private func expireSlowConnections(_ pool: Pool) {
        let deadline = ContinuousClock.now - options.requestTimeout
        for connection in pool.connections {
            guard let oldest = connection.oldestStart, oldest < deadline else { continue }
            connection.close(reason: "no answer within \(options.requestTimeout)", kind: .timedOut)
            collect(from: connection, into: pool)
        }
    }

    private func shutdown() {
        for (job, response) in answered { job.finish(response) }
        answered.removeAll()
        for job in shared.takeInbox() { job.finish(.transportFailed(TransportFailure(.cancelled, "the transport shut down"))) }
        for pool in uniquePools {
            for connection in pool.connections {
                connection.close(reason: "the transport shut down", kind: .cancelled)
                for (job, failure) in connection.unanswered { job.finish(.transportFailed(failure)) }
                connection.unanswered.removeAll()
                for answer in connection.answered { answer.job.finish(answer.response) }
                connection.answered.removeAll()
            }
            failQueue(pool, TransportFailure(.cancelled, "the transport shut down"))
            pool.current = nil
            pool.retiring.removeAll()
        }
    }
}
