import APNs
import FleetCore
import Dispatch
import Foundation
import HTTP2Wire
import Synchronization

/// The live ``PushSender`` and ``ChannelManager``: HTTP/2 over nghttp2 with many streams multiplexed on
/// long-lived connections per APNs base URL, TLS (ALPN h2) for `https://`, h2c with prior knowledge for
/// `http://`. Device pushes go to the push URL, broadcasts to the broadcast URL, channel calls to the
/// channel management URL of their environment (reference 5.2, 5.5), all with the same provider token.
///
/// One dedicated thread owns every socket and nghttp2 session; `send` hands a request to it and
/// suspends until its answer. Requests that got no answer (connection drop, GOAWAY above their
/// stream, timeout, unanswered keepalive PING) are resent on a new connection up to
/// ``Options/maximumAttempts`` times (a channel create only when it provably was not processed); a
/// request that was answered is never resent, except once with a fresh provider token after
/// `403 ExpiredProviderToken`. Call ``shutdown()`` when done.
public final class HTTP2PushSender: PushSender, ChannelManager {
    /// HTTP/2 PING keepalive: how long a connection may be quiet before a PING, and how long its ACK may take.
    public struct Keepalive: Sendable, Hashable {
        /// A PING goes out once the peer has been quiet this long (and after `timeout` while answers are awaited).
        public var interval: Duration
        /// A connection whose PING is not acknowledged within this is closed as dead.
        public var timeout: Duration

        public init(interval: Duration = .seconds(60), timeout: Duration = .seconds(5)) {
            self.interval = interval
            self.timeout = timeout
        }
    }

    /// How the transport behaves.
    public struct Options: Sendable {
        /// The base URL for each environment's device tokens.
        public var endpoints: [PushEnvironment: Endpoint]
        /// Where each environment's broadcasts are published; an environment missing here uses its push endpoint.
        public var broadcastEndpoints: [PushEnvironment: Endpoint]
        /// Each environment's channel management endpoint; a channel call for a missing one fails at once.
        public var channelEndpoints: [PushEnvironment: Endpoint]
        /// An extra CA bundle to trust for `https://` endpoints (`LFG_APNS_CA_FILE`).
        public var caFile: String?
        /// Streams opened at most per connection (the server's SETTINGS may allow fewer).
        public var maxConcurrentStreams: Int
        /// Times one request may be put on the wire when it gets no answer.
        public var maximumAttempts: Int
        /// A connection whose oldest request waits longer than this is presumed dead.
        public var requestTimeout: Duration
        /// Connections per endpoint that take new requests (APNs recommends several at volume, reference 3).
        public var connectionsPerEndpoint: Int
        /// PING keepalive; nil sends none.
        public var keepalive: Keepalive?
        /// The clock deadlines are measured on.
        public var clock: TransportClock
        /// Told about connections opened, PINGs sent and connections found dead.
        public var observer: (@Sendable (TransportEvent) -> Void)?

        public init(
            endpoints: [PushEnvironment: Endpoint], broadcastEndpoints: [PushEnvironment: Endpoint] = [:],
            channelEndpoints: [PushEnvironment: Endpoint] = [:], caFile: String? = nil, maxConcurrentStreams: Int = 1000,
            maximumAttempts: Int = 3, requestTimeout: Duration = .seconds(30), connectionsPerEndpoint: Int = 1,
            keepalive: Keepalive? = Keepalive(), clock: TransportClock = .system,
            observer: (@Sendable (TransportEvent) -> Void)? = nil
        ) {
            self.endpoints = endpoints
            self.broadcastEndpoints = broadcastEndpoints
            self.channelEndpoints = channelEndpoints
            self.caFile = caFile
            self.maxConcurrentStreams = max(1, maxConcurrentStreams)
            self.maximumAttempts = max(1, maximumAttempts)
            self.requestTimeout = requestTimeout
            self.connectionsPerEndpoint = max(1, connectionsPerEndpoint)
            self.keepalive = keepalive
            self.clock = clock
            self.observer = observer
        }

        /// The endpoints (push, broadcast, channel management) and CA file from an ``APNsConfiguration``.
        public init(configuration: APNsConfiguration) throws(HTTP2TransportError) {
            var endpoints: [PushEnvironment: Endpoint] = [:]
            var broadcast: [PushEnvironment: Endpoint] = [:]
            var channels: [PushEnvironment: Endpoint] = [:]
            for environment in PushEnvironment.allCases {
                endpoints[environment] = try Endpoint(url: configuration.baseURL(for: environment))
                broadcast[environment] = try Endpoint(url: configuration.broadcastBaseURL(for: environment))
                channels[environment] = try Endpoint(url: configuration.channelsBaseURL(for: environment))
            }
            self.init(endpoints: endpoints, broadcastEndpoints: broadcast, channelEndpoints: channels, caFile: configuration.caFile)
        }

        /// Every route's endpoint.
        var routes: [Route: Endpoint] {
            var routes: [Route: Endpoint] = [:]
            for (environment, endpoint) in endpoints {
                routes[Route(service: .push, environment: environment)] = endpoint
                routes[Route(service: .broadcast, environment: environment)] = broadcastEndpoints[environment] ?? endpoint
            }
            for (environment, endpoint) in channelEndpoints { routes[Route(service: .channels, environment: environment)] = endpoint }
            return routes
        }
    }

    /// State shared between callers and the loop thread; every member is thread-safe.
    final class Shared: Sendable {
        let wakeup: Wakeup
        private let inbox = Mutex<[TransportJob]>([])
        private let stopping = Atomic<Bool>(false)
        private let opened = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)

        init(wakeup: Wakeup) { self.wakeup = wakeup }

        var isStopping: Bool { stopping.load(ordering: .acquiring) }
        func stop() -> Bool { !stopping.exchange(true, ordering: .acquiringAndReleasing) }
        func takeInbox() -> [TransportJob] { inbox.withLock { jobs in defer { jobs.removeAll(keepingCapacity: true) }; return jobs } }
        /// What happened to a posted job.
        enum Posted { case refused, queued, queuedFirst }

        /// Queues a job unless the loop is stopping. Checked under the inbox lock, so a job is either
        /// drained by the loop (even by its final drain at shutdown) or refused here, never lost.
        func post(_ job: TransportJob) -> Posted {
            inbox.withLock { jobs -> Posted in
                guard !isStopping else { return .refused }
                jobs.append(job)
                return jobs.count == 1 ? .queuedFirst : .queued
            }
        }
        func connectionOpened() { opened.add(1, ordering: .relaxed) }
        var connectionsOpened: Int { opened.load(ordering: .relaxed) }
    }

    private let shared: Shared
    private let clock: TransportClock

    /// Starts the transport's thread. Connections open lazily on the first push to each endpoint.
    ///
    /// - Parameter tokens: the provider-token cache; nil sends no `authorization` header.
    public init(options: Options, tokens: ProviderTokenCache?) throws(HTTP2TransportError) {
        var tls: TLSContext?
        if options.routes.values.contains(where: \.isTLS) {
            do { tls = try TLSContext.client(caFile: options.caFile) } catch { throw HTTP2TransportError(error.message) }
        }
        do { shared = Shared(wakeup: try Wakeup()) } catch { throw HTTP2TransportError(error.message) }
        let loop = LoopBox(ClientLoop(options: options, tls: tls, tokens: tokens, shared: shared, clock: options.clock))
        clock = options.clock
        let shared = shared
        Thread {
            loop.loop.run()
            shared.finished.signal()
        }.start()
    }

    public func send(_ request: PushRequest) async -> PushResponse {
        await withCheckedContinuation { continuation in post(TransportJob(.push(request, continuation), clock: clock)) }
    }

    public func send(_ request: ChannelManagementRequest) async -> ChannelManagementResponse {
        await withCheckedContinuation { continuation in post(TransportJob(.channel(request, continuation), clock: clock)) }
    }

    private func post(_ job: TransportJob) {
        switch shared.post(job) {
        case .refused: job.fail(TransportFailure(.cancelled, "the transport shut down"))
        // Wake the loop only when the inbox was empty: it drains everything in one go.
        case .queuedFirst: shared.wakeup.signal()
        case .queued: break
        }
    }

    /// Connections opened so far, over every endpoint.
    public var connectionsOpened: Int { shared.connectionsOpened }

    deinit { shutdown() }

    /// Closes every connection; pushes still waiting get a `cancelled` transport failure. Idempotent.
    public func shutdown() {
        guard shared.stop() else { return }
        shared.wakeup.signal()
        shared.finished.wait()
    }
}

/// Hands the loop to its thread. `@unchecked Sendable`: only that thread touches the loop afterwards.
private final class LoopBox: @unchecked Sendable {
    let loop: ClientLoop
    init(_ loop: ClientLoop) { self.loop = loop }
}
