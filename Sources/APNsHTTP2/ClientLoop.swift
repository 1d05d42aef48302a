import APNs
import Dispatch
import FleetCore
import HTTP2Wire
import Synchronization

/// The transport's loop: owns every connection, routes requests to their endpoint's pool, resends
/// unanswered ones, and answers callers. Runs on one dedicated thread.
final class ClientLoop {
    /// The connections to one endpoint: up to ``HTTP2PushSender/Options/connectionsPerEndpoint`` taking
    /// new streams, plus retiring ones finishing theirs after GOAWAY.
    final class Pool {
        let endpoint: Endpoint
        var queue: [TransportJob] = []
        var active: [ClientConnection] = []
        var retiring: [ClientConnection] = []
        init(endpoint: Endpoint) { self.endpoint = endpoint }
        var connections: [ClientConnection] { active + retiring }
    }

    let options: HTTP2PushSender.Options
    let tls: TLSContext?
    let tokens: ProviderTokenCache?
    let shared: HTTP2PushSender.Shared
    let clock: TransportClock
    var pools: [Route: Pool] = [:]
    /// Each pool once, in a fixed order.
    private var uniquePools: [Pool] = []

    init(
        options: HTTP2PushSender.Options, tls: TLSContext?, tokens: ProviderTokenCache?, shared: HTTP2PushSender.Shared,
        clock: TransportClock
    ) {
        self.options = options
        self.tls = tls
        self.tokens = tokens
        self.shared = shared
        self.clock = clock
        var byEndpoint: [Endpoint: Pool] = [:]
        for (route, endpoint) in options.routes.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            let pool = byEndpoint[endpoint] ?? Pool(endpoint: endpoint)
            if byEndpoint[endpoint] == nil { uniquePools.append(pool) }
            byEndpoint[endpoint] = pool
            pools[route] = pool
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
            // Wake 4 times a second while an answer or a PING ACK is awaited or a connection opens, once a
            // second while only an idle keepalive is due, to check deadlines against the transport clock.
            let isAwaiting = polled.contains { $0.1.isAwaitingPeer }
            polls.wait(timeoutMilliseconds: isAwaiting ? 250 : options.keepalive != nil && !polled.isEmpty ? 1000 : -1)
            if polls.isReadable(0) { shared.wakeup.drain() }
            for (index, (pool, connection)) in polled.enumerated()
            where polls.isReadable(index + 1) || polls.isWritable(index + 1) {
                connection.service()
                collect(from: connection, into: pool)
            }
            for pool in uniquePools { checkDeadlines(pool) }
            handOverAnswers()
        }
        shutdown()
    }

    /// Answers collected this round, resumed together off this thread (see ``handOverAnswers()``).
    private var answered: [(TransportJob, WireAnswer)] = []

    /// Resumes the callers of this round's answers on a worker thread, in one block: resuming costs
    /// the loop thread a scheduler wake-up per push otherwise, and the loop is the transport's bottleneck.
    /// The block owns nothing but the answers, and every one of them is delivered exactly once.
    private func handOverAnswers() {
        guard !answered.isEmpty else { return }
        let batch = answered
        answered.removeAll(keepingCapacity: true)
        DispatchQueue.global().async {
            for (job, answer) in batch { job.finish(answer) }
        }
    }

    private func route(_ job: TransportJob) {
        let route = job.route
        guard let pool = pools[route] else {
            job.fail(TransportFailure(.connectFailed, "no APNs URL is configured for \(route.service) in \(route.environment.rawValue)"))
            return
        }
        pool.queue.append(job)
    }

    /// Opens the pool's connections when requests wait, then puts as many on the wire as the connections
    /// allow, each on the least loaded.
    private func feed(_ pool: Pool) {
        for connection in pool.active where connection.isEnded || connection.isGoingAway {
            if !connection.isEnded { pool.retiring.append(connection) }
        }
        pool.active.removeAll { $0.isEnded || $0.isGoingAway }
        pool.retiring.removeAll { $0.isEnded || $0.inFlightCount == 0 && $0.isGoingAway && closeIdle($0) }
        guard !pool.queue.isEmpty else { return }
        // While requests wait, the pool opens all its connections (APNs: several connections at volume, spread
        // bursts over them, keep them open; reference 3); each request goes to the least loaded one.
        while pool.active.count < options.connectionsPerEndpoint {
            do {
                pool.active.append(try ClientConnection(endpoint: pool.endpoint, tls: pool.endpoint.isTLS ? tls : nil, clock: clock))
                shared.connectionOpened()
                options.observer?(.connectionOpened(pool.endpoint))
            } catch {
                if pool.active.isEmpty {
                    failQueue(pool, TransportFailure(.connectFailed, "cannot connect to \(pool.endpoint): \(error)"))
                    return
                }
                break
            }
        }
        var taken = 0
        var used: [ClientConnection] = []
        while taken < pool.queue.count {
            guard let connection = pool.active.max(by: { lhs, rhs in
                lhs.capacity(cap: options.maxConcurrentStreams) < rhs.capacity(cap: options.maxConcurrentStreams)
            }), connection.capacity(cap: options.maxConcurrentStreams) > 0 else { break }
            let job = pool.queue[taken]
            var providerToken: String?
            if let tokens {
                do {
                    providerToken = try tokens.token()
                } catch {
                    taken += 1
                    job.fail(TransportFailure(.signingFailed, "cannot sign the provider token: \(error)"))
                    continue
                }
            }
            guard connection.submit(job, providerToken: providerToken) else { continue }
            taken += 1
            if !used.contains(where: { $0 === connection }) { used.append(connection) }
        }
        if taken > 0 { pool.queue.removeFirst(taken) }
        for connection in used {
            connection.service()
            collect(from: connection, into: pool)
        }
    }

    private func closeIdle(_ connection: ClientConnection) -> Bool {
        connection.close(reason: "retired after GOAWAY", kind: .goAway)
        return true
    }

    /// Answers callers for completed requests; resends unanswered ones within the attempt budget.
    private func collect(from connection: ClientConnection, into pool: Pool) {
        var resend: [TransportJob] = []
        for answer in connection.answered {
            let job = answer.job
            let reason = answer.answer.error?.reason
            // `Shutdown`, `IdleTimeout`, `UnrelatedKeyIdInToken`: this connection is done; the next request gets a new one.
            if PushRemedy(status: answer.answer.status, reason: reason, failure: nil) == .reconnect { connection.retire() }
            if reason == .expiredProviderToken, let tokens, let used = answer.providerToken, !job.hasRefreshedToken {
                tokens.tokenExpired(used)
                job.hasRefreshedToken = true
                resend.append(job)
            } else {
                answered.append((job, answer.answer))
            }
        }
        connection.answered.removeAll(keepingCapacity: true)
        for (job, failure) in connection.unanswered {
            if job.attempts < options.maximumAttempts, job.mayResend(after: failure) {
                resend.append(job)
            } else {
                job.fail(failure)
            }
        }
        let neverOpened = connection.isEnded && !connection.hasOpened
        connection.unanswered.removeAll(keepingCapacity: true)
        if !resend.isEmpty { pool.queue.insert(contentsOf: resend, at: 0) }
        if neverOpened, pool.active.contains(where: { $0 === connection }) {
            pool.active.removeAll { $0 === connection }
            if pool.active.isEmpty {
                failQueue(pool, TransportFailure(.connectFailed, connection.wire.endReason ?? "cannot connect to \(pool.endpoint)"))
            }
        }
    }

    private func failQueue(_ pool: Pool, _ failure: TransportFailure) {
        for job in pool.queue { job.fail(failure) }
        pool.queue.removeAll()
    }

    /// Closes a connection whose oldest request has waited past the request timeout, or whose keepalive
    /// PING went unanswered past its timeout: it is presumed dead and its requests are resent elsewhere.
    private func checkDeadlines(_ pool: Pool) {
        let now = clock.now()
        for connection in pool.connections {
            if let oldest = connection.oldestStart, now - oldest > options.requestTimeout {
                let reason = "no answer within \(options.requestTimeout)"
                connection.close(reason: reason, kind: .timedOut)
                options.observer?(.connectionClosed(pool.endpoint, TransportFailure(.timedOut, reason)))
            } else if let keepalive = options.keepalive {
                switch connection.checkKeepalive(keepalive, now: now) {
                case .nothing: break
                case .pingSent: options.observer?(.pingSent(pool.endpoint))
                case .closedAsDead:
                    let reason = connection.wire.endReason ?? "no PING ACK"
                    options.observer?(.connectionClosed(pool.endpoint, TransportFailure(.timedOut, reason)))
                }
            }
            if connection.isEnded { collect(from: connection, into: pool) }
        }
    }

    private func shutdown() {
        for (job, answer) in answered { job.finish(answer) }
        answered.removeAll()
        for job in shared.takeInbox() { job.fail(TransportFailure(.cancelled, "the transport shut down")) }
        for pool in uniquePools {
            for connection in pool.connections {
                connection.close(reason: "the transport shut down", kind: .cancelled)
                for (job, failure) in connection.unanswered { job.fail(failure) }
                connection.unanswered.removeAll()
                for answer in connection.answered { answer.job.finish(answer.answer) }
                connection.answered.removeAll()
            }
            failQueue(pool, TransportFailure(.cancelled, "the transport shut down"))
            pool.active.removeAll()
            pool.retiring.removeAll()
        }
    }
}
