import FleetCore

/// One report on its way to the control plane: `PUT /api/sessions/{sid}` with the whole report.
///
/// `seq` numbers one session's reports 1, 2, 3, … in event order; it travels as the `LFG-Report-Seq`
/// header (an extension the server may ignore), so a server can tell order and spot a stale resend.
public struct SpooledReport: Hashable, Sendable, Codable {
    public var sid: SessionID
    public var report: SessionReport
    public var seq: Int?

    public init(sid: SessionID, report: SessionReport, seq: Int? = nil) {
        self.sid = sid
        self.report = report
        self.seq = seq
    }

    /// The header that carries ``seq``.
    public static let seqHeader = ReportSequence.header
}

/// How one delivery attempt ended.
public enum DeliveryOutcome: Hashable, Sendable {
    /// The server took it.
    case delivered
    /// The server refused it for good (400, 404, 413): retrying would fail again, so it is dropped.
    case rejected(status: Int)
    /// Not delivered for now (unreachable, 5xx): keep it, stop, retry later in order.
    case failed(reason: String)
    /// The server refused the token (401): keep it, and stop trying until the token changes (a wrong
    /// token is a setting the person fixes; retrying it on every tool call only costs time).
    case unauthorized
    /// The server took the connection but did not answer in time: keep it, and give the server a
    /// rest (``SpoolDrainer/slowServerPause``) so every hook call does not wait on a hung server.
    case timedOut(reason: String)

    /// The outcome of an HTTP status: 2xx delivered, 400/404/405/413/422 rejected, 401 unauthorized,
    /// anything else failed.
    public static func forStatus(_ status: Int) -> DeliveryOutcome {
        switch status {
        case 200..<300: .delivered
        case 401: .unauthorized
        case 400, 404, 405, 413, 422: .rejected(status: status)
        default: .failed(reason: "HTTP \(status)")
        }
    }
}

/// Where reports go. Implementations must return within `timeout` (seconds) and never throw:
/// every failure is an outcome, because the hook must never break the agent.
public protocol ReportDelivery: Sendable {
    func deliver(_ report: SpooledReport, timeout: Double) async -> DeliveryOutcome
}

/// An in-memory delivery for tests and for a server that applies spooled reports to its own store.
public actor RecordingReportDelivery: ReportDelivery {
    /// Every report delivered, in order.
    public private(set) var delivered: [SpooledReport] = []
    /// Every report attempted, in order (delivered or not).
    public private(set) var attempts: [SpooledReport] = []
    private var outcomes: @Sendable (SpooledReport) -> DeliveryOutcome

    /// `outcome` decides each attempt; the default delivers everything.
    public init(outcome: @escaping @Sendable (SpooledReport) -> DeliveryOutcome = { _ in .delivered }) {
        outcomes = outcome
    }

    /// Changes how later attempts end (e.g. the server comes back).
    public func setOutcome(_ outcome: @escaping @Sendable (SpooledReport) -> DeliveryOutcome) {
        outcomes = outcome
    }

    public func deliver(_ report: SpooledReport, timeout: Double) async -> DeliveryOutcome {
        attempts.append(report)
        let outcome = outcomes(report)
        if outcome == .delivered { delivered.append(report) }
        return outcome
    }
}
