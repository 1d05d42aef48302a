import FleetCore

/// One reduction of the fleet as devices with the same hidden folders see it.
public struct FleetView: Hashable, Sendable {
    public var contentState: ContentState
    public var activeTotal: Int
    public var isTrustworthy: Bool
    /// Every active sid: the start veto compares it with the device's veto population.
    public var activeSids: Set<SessionID>

    init(_ reduction: FleetReduction) {
        contentState = reduction.contentState
        activeTotal = reduction.activeTotal
        isTrustworthy = reduction.isTrustworthy
        activeSids = Set(reduction.since.keys)
    }

    /// Nothing reduced yet.
    static let empty = FleetView(
        FleetReduction(contentState: ContentState(), since: [:], activeTotal: 0, isTrustworthy: true))
}

/// The reductions of the current fleet, one per distinct `hiddenDirs`, reused while the fleet is unchanged.
///
/// Sessions are the server's, not a device's: every device sees the same fleet through its own hidden
/// folders. Reducing once per distinct filter (not once per device) and only when the fleet changed
/// keeps a tick over 10,000 devices cheap.
struct FleetViewCache: Hashable, Sendable {
    struct Key: Hashable, Sendable {
        var revision: UInt64
        var downHosts: Set<HostID>
        /// The "no news" sessions (``SilenceRule``): silence is a change of the fleet too.
        var quiet: Set<SessionID> = []
    }

    var key: Key?
    var sessions: [FleetSession] = []
    var views: [HiddenDirs: FleetView] = [:]
    var reducedAt: UnixTime = 0

    /// The view for `hiddenDirs`, reduced on first use with the current sticky baselines.
    mutating func view(for hiddenDirs: HiddenDirs, since: SinceMap, guards: GuardSet, silence: SilenceRule) -> FleetView {
        guard key != nil else { return .empty }
        if let view = views[hiddenDirs] { return view }
        let reduction = FleetReducer.reduce(
            sessions, previousSince: since, hiddenDirs: hiddenDirs, now: reducedAt, guards: guards, silence: silence)
        let view = FleetView(reduction)
        views[hiddenDirs] = view
        return view
    }
}
