import APNs
import HTTP2Wire

/// One client HTTP/2 connection to an APNs endpoint and the pushes in flight on it.
/// Confined to the transport's loop thread.
final class ClientConnection: HTTP2SessionDelegate {
    /// A push on the wire and what has come back for it so far.
    final class InFlight {
        let job: PushJob
        let providerToken: String?
        let startedAt: ContinuousClock.Instant
        var status: Int?
        var apnsID: String?
        var body: [UInt8] = []

        init(job: PushJob, providerToken: String?, startedAt: ContinuousClock.Instant) {
            self.job = job
            self.providerToken = providerToken
            self.startedAt = startedAt
        }
    }

    /// A push that got its answer on this connection.
    struct Answered {
        let job: PushJob
        let response: PushResponse
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
    /// `:method`, `:scheme` and `:authority`: the same for every push on this connection.
    private let fixedHeaders: [HTTP2Header]
    /// The `authorization` value for the provider token last used (it changes every 40 minutes).
    private var authorization: (token: String, value: String)?
    /// Reused for every push so the hot path allocates nothing for headers.
    private var block = HeaderBlock()
    /// Filled while servicing; the loop takes them after each call.
    var answered: [Answered] = []
    var unanswered: [(PushJob, TransportFailure)] = []

    init(endpoint: Endpoint, tls: TLSContext?) throws(WireError) {
        self.endpoint = endpoint
        fixedHeaders = [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", endpoint.isTLS ? "https" : "http"),
            HTTP2Header(":authority", endpoint.authority),
        ]
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

    /// When the oldest push in flight was put on the wire.
    var oldestStart: ContinuousClock.Instant? { inFlight.values.map(\.startedAt).min() }

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
        if wire.isEstablished { hasOpened = true }
        if wire.isEnded { failAll(kind: hasOpened ? .connectionLost : .connectFailed, wire.endReason ?? "closed") }
    }

    /// Puts `job` on the wire; false when the connection takes no new stream (ids exhausted).
    func submit(_ job: PushJob, providerToken: String?) -> Bool {
        let request = job.request
        block.removeAll()
        for header in fixedHeaders { block.add(header.name, header.value) }
        block.add(":path", request.path)
        if let providerToken {
            if authorization?.token != providerToken { authorization = (providerToken, "bearer " + providerToken) }
            block.add("authorization", authorization?.value ?? "")
        }
        request.forEachHeader { name, value in block.add(name, value) }
        guard let stream = wire.session.submitRequest(block, body: request.payload.bytes) else {
            isGoingAway = true
            return false
        }
        job.attempts += 1
        inFlight[stream] = InFlight(job: job, providerToken: providerToken, startedAt: .now)
        return true
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
        if name.equals(":status") {
            inFlight[stream]?.status = value.decimal
        } else if name.equals("apns-id") {
            inFlight[stream]?.apnsID = value.string
        }
    }

    func http2Data(stream: Int32, bytes: UnsafeRawBufferPointer) {
        inFlight[stream]?.body.append(contentsOf: bytes)
    }

    func http2EndStream(stream: Int32) {
        guard let flight = inFlight[stream], let status = flight.status else { return }
        inFlight[stream] = nil
        let response = PushResponse(
            status: status, apnsID: flight.apnsID, body: flight.body, latencyMilliseconds: 0, attempts: flight.job.attempts)
        answered.append(Answered(job: flight.job, response: response, providerToken: flight.providerToken))
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
}
