/// One session as a reducer sees it: its id, its report, whether its host is known down, and when a
/// report of it last arrived.
public struct FleetSession: Hashable, Sendable {
    public var sid: SessionID
    public var report: SessionReport
    public var isHostDown: Bool
    /// When the server last took a report for this session (Unix seconds); nil when the writer does not
    /// track it (then the session is never "no news", see ``SilenceRule``).
    public var heardAt: UnixTime?

    public init(sid: SessionID, report: SessionReport, isHostDown: Bool = false, heardAt: UnixTime? = nil) {
        self.sid = sid
        self.report = report
        self.isHostDown = isHostDown
        self.heardAt = heardAt
    }

    /// The ladder's verdict, or nil when archived, ignoring silence.
    public var displayState: DisplayState? { DisplayState.resolve(report, isHostDown: isHostDown) }

    /// The ladder's verdict at `now` under `silence`, or nil when archived.
    public func displayState(at now: UnixTime, silence: SilenceRule) -> DisplayState? {
        DisplayState.resolve(report, isHostDown: isHostDown, isQuiet: silence.isQuiet(heardAt: heardAt, now: now))
    }
}
