import APNs
import FleetCore
import Dispatch
import Foundation
import HTTP2Wire
import Synchronization

/// The live ``PushSender``: HTTP/2 over nghttp2 with many streams multiplexed on one long-lived
/// connection per APNs base URL, TLS (ALPN h2) for `https://`, h2c with prior knowledge for `http://`.
///
/// One dedicated thread owns every socket and nghttp2 session; `send` hands a push to it and
/// suspends until its answer. Pushes that got no answer (connection drop, GOAWAY above their
/// stream, timeout) are resent on a new connection up to ``Options/maximumAttempts`` times; a
/// push that was answered is never resent, except once with a fresh provider token after
/// `403 ExpiredProviderToken`. Call ``shutdown()`` when done.
public final class HTTP2PushSender: PushSender {
    /// How the transport behaves.
    public struct Options: Sendable {
        /// The base URL for each environment's tokens.
        public var endpoints: [PushEnvironment: Endpoint]
        /// An extra CA bundle to trust for `https://` endpoints (`LFG_APNS_CA_FILE`).
        public var caFile: String?
        /// Streams opened at most per connection (the server's SETTINGS may allow fewer).
        public var maxConcurrentStreams: Int
        /// Times one push may be put on the wire when it gets no answer.
        public var maximumAttempts: Int
        /// A connection whose oldest push waits longer than this is presumed dead.
        public var requestTimeout: Duration

        public init(endpoints: [PushEnvironment: Endpoint], caFile: String? = nil, maxConcurrentStreams: Int = 1000,
                    maximumAttempts: Int = 3, requestTimeout: Duration = .seconds(30)) {
            self.endpoints = endpoints
            self.caFile = caFile
            self.maxConcurrentStreams = max(1, maxConcurrentStreams)
            self.maximumAttempts = max(1, maximumAttempts)
            self.requestTimeout = requestTimeout
        }

        /// The endpoints and CA file from an ``APNsConfiguration``.
        public init(configuration: APNsConfiguration) throws(HTTP2TransportError) {
            self.init(
                endpoints: [
                    .sandbox: try Endpoint(url: configuration.baseURL(for: .sandbox)),
                    .production: try Endpoint(url: configuration.baseURL(for: .production)),
                ],
                caFile: configuration.caFile)
        }
    }

    /// State shared between callers and the loop thread; every member is thread-safe.
    final class Shared: Sendable {
        let wakeup: Wakeup
        private let inbox = Mutex<[PushJob]>([])
        private let stopping = Atomic<Bool>(false)
        private let opened = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)

        init(wakeup: Wakeup) { self.wakeup = wakeup }

        var isStopping: Bool { stopping.load(ordering: .acquiring) }
        func stop() -> Bool { !stopping.exchange(true, ordering: .acquiringAndReleasing) }
        func takeInbox() -> [PushJob] { inbox.withLock { jobs in defer { jobs.removeAll(keepingCapacity: true) }; return jobs } }
        /// What happened to a posted job.
        enum Posted { case refused, queued, queuedFirst }

        /// Queues a job unless the loop is stopping. Checked under the inbox lock, so a job is either
        /// drained by the loop (even by its final drain at shutdown) or refused here, never lost.
        func post(_ job: PushJob) -> Posted {
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

    /// Starts the transport's thread. Connections open lazily on the first push to each endpoint.
    ///
    /// - Parameter tokens: the provider-token cache; nil sends no `authorization` header.
    public init(options: Options, tokens: ProviderTokenCache?) throws(HTTP2TransportError) {
        var tls: TLSContext?
        if options.endpoints.values.contains(where: \.isTLS) {
            do { tls = try TLSContext.client(caFile: options.caFile) } catch { throw HTTP2TransportError(error.message) }
        }
        do { shared = Shared(wakeup: try Wakeup()) } catch { throw HTTP2TransportError(error.message) }
        let loop = LoopBox(ClientLoop(options: options, tls: tls, tokens: tokens, shared: shared))
        let shared = shared
        Thread {
            loop.loop.run()
            shared.finished.signal()
        }.start()
    }

    public func send(_ request: PushRequest) async -> PushResponse {
        await withCheckedContinuation { continuation in
            let job = PushJob(request: request, continuation: continuation, enqueuedAt: .now)
            switch shared.post(job) {
            case .refused: job.finish(.transportFailed(TransportFailure(.cancelled, "the transport shut down")))
            // Wake the loop only when the inbox was empty: it drains everything in one go.
            case .queuedFirst: shared.wakeup.signal()
            case .queued: break
            }
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
