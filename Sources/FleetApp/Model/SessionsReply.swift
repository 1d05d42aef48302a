import FleetCore

/// The answer of `GET /api/sessions`: `{"sessions": [ {"sid", ...report..., "displayState"} ]}`.
public struct SessionsReply: Hashable, Sendable, Codable {
    /// One listed session: its sid, its report and the server's verdict on it.
    public struct Session: Hashable, Sendable, Codable {
        public var sid: SessionID
        public var report: SessionReport
        /// The server's ladder verdict; `unknown` means the session's host is known down.
        public var displayState: DisplayState?
        /// When the server last took a report for it, so the app applies the same silence rule
        /// (``SilenceRule``, a "no news" row) as the server; nil from a server that does not say.
        public var heardAt: UnixTime?
        /// The server's sticky baseline for the session (state and since when); nil from a server that does
        /// not say, or for a session it has not reduced as active.
        public var since: SinceEntry?

        public init(
            sid: SessionID, report: SessionReport, displayState: DisplayState? = nil, heardAt: UnixTime? = nil,
            since: SinceEntry? = nil
        ) {
            self.sid = sid
            self.report = report
            self.displayState = displayState
            self.heardAt = heardAt
            self.since = since
        }

        enum CodingKeys: String, CodingKey { case sid, displayState, heardAt, since }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sid = try container.decode(SessionID.self, forKey: .sid)
            report = try SessionReport(from: decoder)
            // An unknown verdict from a newer server must not fail the whole listing.
            displayState = (try? container.decodeIfPresent(String.self, forKey: .displayState))
                .flatMap(DisplayState.init(rawValue:))
            heardAt = try? container.decodeIfPresent(UnixTime.self, forKey: .heardAt)
            // A baseline the app cannot read (a newer server's state) only costs the row its exact age.
            since = try? container.decodeIfPresent(SinceEntry.self, forKey: .since)
        }

        public func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sid, forKey: .sid)
            try container.encodeIfPresent(displayState, forKey: .displayState)
            try container.encodeIfPresent(heardAt, forKey: .heardAt)
            try container.encodeIfPresent(since, forKey: .since)
        }
    }

    public var sessions: [Session]

    public init(sessions: [Session]) { self.sessions = sessions }
}
