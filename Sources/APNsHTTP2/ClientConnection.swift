import APNs
import HTTP2Wire

/// One client HTTP/2 connection to an APNs endpoint and the pushes in flight on it.
/// Confined to the transport's loop thread.
final class ClientConnection: HTTP2SessionDelegate {
    /// A request on the wire and what has come back for it so far.
    final class InFlight {
        let job: TransportJob
        let providerToken: String?
        let startedAt: Duration
        var answer = WireAnswer(status: 0)
        var hasStatus = false

        init(job: TransportJob, providerToken: String?, startedAt: Duration) {
            self.job = job
            self.providerToken = providerToken
            self.startedAt = startedAt
        }
    }

    /// A request that got its answer on this connection.
    struct Answered {
        let job: TransportJob
        let answer: WireAnswer
        let providerToken: String?
    }

    let endpoint: Endpoint
    private let socket: TCPSocket
    let wire: HTTP2Connection
    private(set) var isConnected = false
    /// Whether the connection was ever established (TCP, TLS and h2 agreed): failures before that are connect failures.
    private(set) var hasOpened = false
    private(set) var hasSettings = false
    /// GOAWAY arrived: no new streams; the ones at or below its last stream id still complete.
    private(set) var isGoingAway = false
    private var inFlight: [Int32: InFlight] = [:]
    /// `:scheme` and `:authority`: the same for every request on this connection.
    private let fixedHeaders: [HTTP2Header]
    /// The `authorization` value for the provider token last used (it changes every 40 minutes).
    private var authorization: (token: String, value: String)?
    /// Reused for every push so the hot path allocates nothing for headers.
    private var block = HeaderBlock()
    /// Filled while servicing; the loop takes them after each call.
    var answered: [Answered] = []
    var unanswered: [(TransportJob, TransportFailure)] = []
    private let clock: TransportClock
    /// When the peer was last heard from (any bytes), on the transport clock.
    private var lastHeardAt: Duration
    private var bytesHeard = 0
    /// When the outstanding keepalive PING went out, if one is outstanding.
    private var pingSentAt: Duration?

    init(endpoint: Endpoint, tls: TLSContext?, clock: TransportClock) throws(WireError) {
        self.endpoint = endpoint
        self.clock = clock
        lastHeardAt = clock.now()
        fixedHeaders = [HTTP2Header(":scheme", endpoint.isTLS ? "https" : "http"), HTTP2Header(":authority", endpoint.authority)]
        socket = try TCPSocket.connect(host: endpoint.host, port: endpoint.port)
        let stream: any ByteStream
        if let tls {
            stream = try TLSStream(socket: socket, context: tls, serverName: endpoint.host)
        } else {
            stream = socket
        }
        wire = HTTP2Connection(stream: stream, session: try HTTP2Session(role: .client))
        wire.session.delegate = self
    }

    var descriptor: Int32 { socket.descriptor }
    var isEnded: Bool { wire.isEnded }
    var inFlightCount: Int { inFlight.count }
    var pollsForWrite: Bool { !isConnected || wire.pollsForWrite }

    /// When the oldest request in flight was put on the wire (transport clock).
    var oldestStart: Duration? { inFlight.values.map(\.startedAt).min() }

    /// How many more streams may open now: the peer's limit (1 until its SETTINGS arrive, as APNs
    /// allows one stream on a fresh token connection), capped by ours.
    func capacity(cap: Int) -> Int {
        guard isConnected, !isGoingAway, !wire.isEnded else { return 0 }
        let limit = hasSettings ? min(Int(wire.session.remoteMaxConcurrentStreams), cap) : 1
        return max(0, limit - inFlight.count)
    }

    /// Services the socket: completes the TCP connect, then the TLS handshake, reads and writes.
    func service() {
        if !isConnected {
            if let failure = socket.connectResult() {
                wire.close(reason: "cannot connect to \(endpoint): \(failure)")
                return
            }
            isConnected = true
        }
        wire.service()
        if wire.bytesReceived != bytesHeard {
            bytesHeard = wire.bytesReceived
            lastHeardAt = clock.now()
        }
        if wire.isEstablished { hasOpened = true }
        if wire.isEnded { failAll(kind: hasOpened ? .connectionLost : .connectFailed, wire.endReason ?? "closed") }
    }

    /// Puts `job` on the wire; false when the connection takes no new stream (ids exhausted).
    func submit(_ job: TransportJob, providerToken: String?) -> Bool {
        block.removeAll()
        block.add(":method", job.method)
        for header in fixedHeaders { block.add(header.name, header.value) }
        block.add(":path", job.path)
        if let providerToken {
            if authorization?.token != providerToken { authorization = (providerToken, "bearer " + providerToken) }
            block.add("authorization", authorization?.value ?? "")
        }
        job.forEachHeader { name, value in block.add(name, value) }
        guard let stream = wire.session.submitRequest(block, body: job.body) else {
            isGoingAway = true
            return false
        }
        job.attempts += 1
        inFlight[stream] = InFlight(job: job, providerToken: providerToken, startedAt: clock.now())
        return true
    }

    /// Whether something is awaited from the peer: an answer, a PING ACK, or the connection itself.
    var isAwaitingPeer: Bool { !inFlight.isEmpty || pingSentAt != nil || !hasOpened }

    /// What a keepalive check did.
    enum KeepaliveStep: Equatable { case nothing, pingSent, closedAsDead }

    /// HTTP/2 keepalive (reference 3: PING an idle connection): a PING once the peer has been quiet for
    /// `interval` (or for `timeout` while requests wait for answers); the connection is closed as dead
    /// when the ACK has not come within `timeout`, so its requests are resent on a new one in seconds.
    func checkKeepalive(_ keepalive: HTTP2PushSender.Keepalive, now: Duration) -> KeepaliveStep {
        guard hasOpened, !wire.isEnded else { return .nothing }
        if let sentAt = pingSentAt {
            guard now - sentAt > keepalive.timeout else { return .nothing }
            close(reason: "no PING ACK within \(keepalive.timeout): the connection is dead", kind: .timedOut)
            return .closedAsDead
        }
        let quiet = now - lastHeardAt
        guard quiet >= keepalive.interval || (!inFlight.isEmpty && quiet >= keepalive.timeout) else { return .nothing }
        guard wire.session.submitPing() else { return .nothing }
        pingSentAt = now
        service()  // also fails the requests in flight if writing the PING finds the connection ended
        return .pingSent
    }

    /// Takes no new streams from now on; the ones in flight still complete, then it closes.
    func retire() { isGoingAway = true }

    /// Closes the connection; every push in flight comes back as unanswered.
    func close(reason: String, kind: TransportFailure.Kind) {
        wire.close(reason: reason)
        failAll(kind: kind, reason)
    }

    private func failAll(kind: TransportFailure.Kind, _ message: String) {
        for (_, flight) in inFlight.sorted(by: { $0.key < $1.key }) {
            unanswered.append((flight.job, TransportFailure(kind, message)))
        }
        inFlight.removeAll()
    }

    // MARK: HTTP2SessionDelegate

    func http2Header(stream: Int32, name: HeaderBytes, value: HeaderBytes) {
        guard let flight = inFlight[stream] else { return }
        if name.equals(":status") {
            flight.answer.status = value.decimal ?? 0
            flight.hasStatus = value.decimal != nil
        } else if name.equals("apns-id") {
            flight.answer.apnsID = value.string
        } else if name.equals("apns-channel-id") || name.equals("apns-request-id") || name.equals("apns-unique-id") {
            flight.answer.headers.append(HeaderField(name.string, value.string))
        }
    }

    func http2Data(stream: Int32, bytes: UnsafeRawBufferPointer) {
        inFlight[stream]?.answer.body.append(contentsOf: bytes)
    }

    func http2EndStream(stream: Int32) {
        guard let flight = inFlight[stream], flight.hasStatus else { return }
        inFlight[stream] = nil
        answered.append(Answered(job: flight.job, answer: flight.answer, providerToken: flight.providerToken))
    }

    func http2StreamClosed(stream: Int32, errorCode: UInt32) {
        guard let flight = inFlight.removeValue(forKey: stream) else { return }
        // 7 = REFUSED_STREAM: the server did not process it (e.g. above a GOAWAY's last stream id).
        let kind: TransportFailure.Kind = isGoingAway ? .goAway : .protocolError
        unanswered.append((flight.job, TransportFailure(kind, "stream closed without an answer (HTTP/2 error \(errorCode))")))
    }

    func http2GoAway(lastStreamID: Int32, errorCode: UInt32, debugData: [UInt8]) {
        isGoingAway = true
    }

    func http2SettingsReceived() {
        hasSettings = true
    }

    func http2PingAcknowledged() {
        pingSentAt = nil
    }
}
