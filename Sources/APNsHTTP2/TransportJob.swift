import APNs
import FleetCore

/// Which of APNs' services a request goes to; with the environment it picks the endpoint.
enum Service: Hashable, Sendable {
    /// Device pushes (`/3/device/...`).
    case push
    /// Broadcast publishing (`/4/broadcasts/apps/...`; reference 5.5).
    case broadcast
    /// Channel management (`/1/apps/...`; reference 5.2, its own host and port).
    case channels
}

/// Where one request goes.
struct Route: Hashable, Sendable {
    let service: Service
    let environment: PushEnvironment
}

/// One request travelling through the transport: a push or a channel call, who waits for it, and its
/// history.
///
/// `@unchecked Sendable`: a caller creates it and hands it over through the inbox lock; from then on
/// only the loop thread reads or changes it.
final class TransportJob: @unchecked Sendable {
    enum Work {
        case push(PushRequest, CheckedContinuation<PushResponse, Never>)
        case channel(ChannelManagementRequest, CheckedContinuation<ChannelManagementResponse, Never>)
    }

    let work: Work
    let enqueuedAt: Duration
    let clock: TransportClock
    /// Times put on the wire so far.
    var attempts = 0
    /// Whether a fresh provider token was already tried after `ExpiredProviderToken`.
    var hasRefreshedToken = false

    init(_ work: Work, clock: TransportClock) {
        self.work = work
        self.clock = clock
        enqueuedAt = clock.now()
    }

    var route: Route {
        switch work {
        case .push(let request, _):
            Route(service: request.channel == nil ? .push : .broadcast, environment: request.environment)
        case .channel(let request, _): Route(service: .channels, environment: request.environment)
        }
    }

    var method: String {
        switch work {
        case .push: "POST"
        case .channel(let request, _): request.method.rawValue
        }
    }

    var path: String {
        switch work {
        case .push(let request, _): request.path
        case .channel(let request, _): request.path
        }
    }

    var body: [UInt8] {
        switch work {
        case .push(let request, _): request.payload.bytes
        case .channel(let request, _): request.body
        }
    }

    /// Calls `body` with each APNs header (no pseudo-headers, no `authorization`).
    func forEachHeader(_ body: (String, String) -> Void) {
        switch work {
        case .push(let request, _): request.forEachHeader(body)
        case .channel(let request, _): for field in request.headers { body(field.name, field.value) }
        }
    }

    /// Whether the request may be put on the wire again after `failure` left it unanswered. A channel
    /// create is not idempotent (a resend could make a second channel nobody knows), so it is resent only
    /// when the server provably did not process it (RFC 9113 6.8: above GOAWAY's last stream; or never
    /// connected). Everything else is safe to resend.
    func mayResend(after failure: TransportFailure) -> Bool {
        guard case .channel(let request, _) = work, case .create = request.operation else { return true }
        return failure.kind == .goAway || failure.kind == .connectFailed
    }

    /// Answers the caller with what came back; called exactly once per job (this or ``fail(_:)``).
    func finish(_ answer: WireAnswer) {
        let milliseconds = Self.milliseconds(clock.now() - enqueuedAt)
        switch work {
        case .push(_, let continuation):
            continuation.resume(returning: PushResponse(
                status: answer.status, reason: answer.error?.reason, apnsID: answer.apnsID,
                invalidSince: answer.error?.invalidSince, latencyMilliseconds: milliseconds, attempts: max(attempts, 1)))
        case .channel(let request, let continuation):
            continuation.resume(returning: ChannelManagementResponse(
                answering: request, status: answer.status, headers: answer.headers, body: answer.body,
                latencyMilliseconds: milliseconds))
        }
    }

    /// Answers the caller with a transport failure (no HTTP answer).
    func fail(_ failure: TransportFailure) {
        let milliseconds = Self.milliseconds(clock.now() - enqueuedAt)
        switch work {
        case .push(_, let continuation):
            continuation.resume(returning: .transportFailed(failure, latencyMilliseconds: milliseconds, attempts: max(attempts, 1)))
        case .channel(_, let continuation):
            continuation.resume(returning: .transportFailed(failure, latencyMilliseconds: milliseconds))
        }
    }

    static func milliseconds(_ elapsed: Duration) -> Double {
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}

/// An HTTP answer as it came off the wire: status, the APNs headers the callers read, body.
struct WireAnswer {
    var status: Int
    var apnsID: String?
    /// `apns-channel-id`, `apns-request-id`, `apns-unique-id` when present (channel calls and broadcasts).
    var headers: [HeaderField] = []
    var body: [UInt8] = []

    /// The parsed error body of a non-2xx answer.
    var error: APNsErrorBody? { APNsErrorBody(status: status, body: body) }
}
