import FleetCore

/// One view of the fleet: the card's inputs as devices with the same hidden folders see them.
public struct FleetView: Hashable, Sendable {
    public var contentState: ContentState
    public var activeTotal: Int
    public var isTrustworthy: Bool
    /// Moves when a sid enters or leaves the view's active set (the start veto compares that set).
    public var membership: UInt64

    init(_ tally: FleetTally, now: UnixTime) {
        contentState = tally.contentState(now: now)
        activeTotal = tally.activeTotal
        isTrustworthy = tally.isTrustworthy
        membership = tally.membership
    }

    /// Whether a device deciding on `other` could decide anything else than on this view (the time of the
    /// reduction aside: the card's `updatedAt` is the decision's own time).
    func isSame(as other: FleetView) -> Bool {
        var content = contentState
        content.updatedAt = other.contentState.updatedAt
        return content == other.contentState && activeTotal == other.activeTotal
            && isTrustworthy == other.isTrustworthy && membership == other.membership
    }
}

/// Every session's part in the card (``SessionPart``), and one incremental reduction (``FleetTally``) per
/// distinct `hiddenDirs` a device has: a report moves its own session's part in each view, never the
/// whole fleet, and only the devices whose view changed are decided again.
struct FleetViews: Sendable {
    /// The snapshot sequence the views reflect; nil: the next tick looks at every session.
    var reducedSequence: UInt64?
    /// The hosts known down at the last tick.
    var downHosts: Set<HostID> = []
    /// Every session's part, unfiltered.
    var parts: [SessionID: SessionPart] = [:]
    var tallies: [HiddenDirs: FleetTally] = [:]
    /// Each tally read as a view, as of the last change.
    var views: [HiddenDirs: FleetView] = [:]
    /// Which view each device reads, and the devices of each view.
    var viewOfDevice: [DeviceID: HiddenDirs] = [:]
    var devicesOfView: [HiddenDirs: Set<DeviceID>] = [:]
    /// When sessions must be looked at again with no report: they turn quiet, or their question expires.
    var sessionWakes = WakeSchedule<SessionID>()
    /// Sessions to look at again at the next tick whatever the log says (baselines a load brought).
    var revisit: Set<SessionID> = []
    /// When the parts were last changed.
    var reducedAt: UnixTime = 0

    /// The view for `hiddenDirs`, its tally built from the parts on first use.
    mutating func view(for hiddenDirs: HiddenDirs, guards: GuardSet) -> FleetView {
        if let view = views[hiddenDirs] { return view }
        let tally = FleetTally(hiddenDirs: hiddenDirs, guards: guards, parts: parts.values)
        let view = FleetView(tally, now: reducedAt)
        tallies[hiddenDirs] = tally
        views[hiddenDirs] = view
        return view
    }

    /// The sids the view for `hiddenDirs` counts as active (with a baseline), as the full reduction's `since`
    /// keys.
    func activeSids(for hiddenDirs: HiddenDirs) -> Set<SessionID> {
        Set(parts.values.lazy.filter { $0.since != nil && !hiddenDirs.hides($0.cwd) }.map(\.sid))
    }

    /// Whether every sid the view for `hiddenDirs` counts as active is in `population` (the start veto),
    /// without building the active set: the active sids in `population` are as many as the view's.
    func activeSids(for hiddenDirs: HiddenDirs, areAllIn population: Set<SessionID>) -> Bool {
        let baselines = tallies[hiddenDirs]?.baselines ?? activeSids(for: hiddenDirs).count
        guard baselines <= population.count else { return false }
        let counted = population.lazy.filter { sid in
            guard let part = self.parts[sid], part.since != nil else { return false }
            return !hiddenDirs.hides(part.cwd)
        }.count
        return counted == baselines
    }

    /// Files `deviceId` under the view it reads now (nil: the device is gone); drops views nobody reads.
    mutating func index(_ deviceId: DeviceID, reading hiddenDirs: HiddenDirs?, guards: GuardSet) {
        let previous = viewOfDevice[deviceId]
        guard previous != hiddenDirs else { return }
        if let previous {
            devicesOfView[previous]?.remove(deviceId)
            if devicesOfView[previous]?.isEmpty == true {
                devicesOfView[previous] = nil
                tallies[previous] = nil
                views[previous] = nil
            }
        }
        viewOfDevice[deviceId] = hiddenDirs
        guard let hiddenDirs else { return }
        devicesOfView[hiddenDirs, default: []].insert(deviceId)
        _ = view(for: hiddenDirs, guards: guards)
    }
}
