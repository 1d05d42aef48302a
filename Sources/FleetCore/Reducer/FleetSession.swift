/// One session as a reducer sees it: its id, its report and whether its host is known down.
public struct FleetSession: Hashable, Sendable {
    public var sid: SessionID
    public var report: SessionReport
    public var isHostDown: Bool

    public init(sid: SessionID, report: SessionReport, isHostDown: Bool = false) {
        self.sid = sid
        self.report = report
        self.isHostDown = isHostDown
    }

    /// The ladder's verdict, or nil when archived.
    public var displayState: DisplayState? { DisplayState.resolve(report, isHostDown: isHostDown) }
}
