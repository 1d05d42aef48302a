/// The input of `lfg reduce` (contract 3.1): sessions with their sids, the time, and optional context.
public struct ReduceRequest: Hashable, Sendable, Decodable {
    /// One session report with its sid.
    public struct Session: Hashable, Sendable, Decodable {
        public var sid: SessionID
        public var report: SessionReport

        public init(sid: SessionID, report: SessionReport) {
            self.sid = sid
            self.report = report
        }

        enum CodingKeys: String, CodingKey { case sid }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sid = try container.decode(SessionID.self, forKey: .sid)
            guard !sid.rawValue.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .sid, in: container, debugDescription: "must not be empty")
            }
            report = try SessionReport(from: decoder)
        }
    }

    public var now: UnixTime
    public var sessions: [Session]
    public var hiddenDirs: HiddenDirs
    public var previousSince: SinceMap
    /// An extension to the contract: hosts known down, whose sessions read `unknown`.
    public var downHosts: Set<HostID>

    public init(
        now: UnixTime, sessions: [Session], hiddenDirs: HiddenDirs = [], previousSince: SinceMap = [:],
        downHosts: Set<HostID> = []
    ) {
        self.now = now
        self.sessions = sessions
        self.hiddenDirs = hiddenDirs
        self.previousSince = previousSince
        self.downHosts = downHosts
    }

    enum CodingKeys: String, CodingKey { case now, sessions, hiddenDirs, previousSince, downHosts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        now = try container.decode(UnixTime.self, forKey: .now)
        sessions = try container.decode([Session].self, forKey: .sessions)
        hiddenDirs = try container.decode(.hiddenDirs, default: HiddenDirs())
        previousSince = try container.decode(.previousSince, default: SinceMap())
        downHosts = try container.decode(.downHosts, default: Set<HostID>())
    }

    /// The sessions as the reducer takes them.
    public var fleetSessions: [FleetSession] {
        sessions.map { FleetSession(sid: $0.sid, report: $0.report, isHostDown: downHosts.contains($0.report.host)) }
    }
}

/// The output of `lfg reduce` (contract 3.1).
public struct ReduceResponse: Hashable, Sendable, Encodable {
    public var contentState: ContentState
    public var since: SinceMap
    public var activeTotal: Int
    public var trustworthy: Bool
    public var relevanceScore: Int
    public var accent: Accent

    public init(_ reduction: FleetReduction) {
        contentState = reduction.contentState
        since = reduction.since
        activeTotal = reduction.activeTotal
        trustworthy = reduction.isTrustworthy
        relevanceScore = reduction.relevanceScore
        accent = reduction.accent
    }
}

extension FleetReducer {
    /// Answers one `lfg reduce` request.
    public static func answer(_ request: ReduceRequest) -> ReduceResponse {
        ReduceResponse(
            reduce(request.fleetSessions, previousSince: request.previousSince, hiddenDirs: request.hiddenDirs,
                   now: request.now))
    }
}
