import FleetCore

/// One row of the app's session list: what the person sees of a session.
public struct SessionListRow: Hashable, Sendable, Identifiable {
    public var sid: SessionID
    public var title: String
    public var cwd: String
    /// The ladder's verdict (`unknown` when the host is down).
    public var displayState: DisplayState
    /// When the session entered its current card state (working or needs input), for the elapsed time;
    /// nil for sessions the card does not count (idle, blocked, unknown).
    public var since: UnixTime?
    /// What it waits on, when it needs the person.
    public var prompt: Prompt?
    /// The agent's current step, if it reported one.
    public var step: String?

    public var id: SessionID { sid }

    /// The title, or the sid when the session has none.
    public var displayTitle: String { title.isEmpty ? sid.rawValue : title }

    /// "Needs you", "Working", ... the words the list uses for each state.
    public var stateLabel: String { Self.label(displayState) }

    public static func label(_ state: DisplayState) -> String {
        switch state {
        case .needsInput: "Needs you"
        case .working: "Working"
        case .noNews: "No news"
        case .blocked: "Blocked"
        case .idle: "Idle"
        case .unknown: "Host down"
        }
    }
}

/// The sessions of one host.
public struct SessionListSection: Hashable, Sendable, Identifiable {
    public var host: HostID
    /// The host's heartbeat lapsed: its rows read "Host down", their counts unknown.
    public var isHostDown: Bool
    public var rows: [SessionListRow]

    public var id: HostID { host }
    /// Rows waiting on the person.
    public var needsInputCount: Int { rows.count { $0.displayState == .needsInput } }
}

/// Builds the list: the sessions the list shows (hidden folders left out, exactly as the card counts),
/// grouped by host, each with its display state and the same `since` the card's elapsed labels use.
public enum SessionList {
    /// Sections by host name; in each, sessions needing the person first, then working, then the rest,
    /// the oldest first within a state, then by sid (a stable order that does not jump on each refresh).
    public static func sections(model: SessionModel, since: SinceMap) -> [SessionListSection] {
        var byHost: [HostID: [SessionListRow]] = [:]
        for session in model.filteredSessions {
            guard let state = session.displayState else { continue }  // archived: listed nowhere
            let row = SessionListRow(
                sid: session.sid, title: session.report.title, cwd: session.report.cwd, displayState: state,
                since: state.rowState == nil ? nil : since[session.sid]?.since, prompt: session.report.prompt,
                step: session.report.step)
            byHost[session.report.host, default: []].append(row)
        }
        return byHost.keys.sorted { $0.rawValue < $1.rawValue }.map { host in
            SessionListSection(
                host: host, isHostDown: model.hosts[host] == .knownDown,
                rows: byHost[host, default: []].sorted(by: listOrder))
        }
    }

    static func listOrder(_ lhs: SessionListRow, _ rhs: SessionListRow) -> Bool {
        let left = rank(lhs.displayState)
        let right = rank(rhs.displayState)
        if left != right { return left < right }
        if lhs.since != rhs.since { return (lhs.since ?? .infinity) < (rhs.since ?? .infinity) }
        return lhs.sid.rawValue < rhs.sid.rawValue
    }

    static func rank(_ state: DisplayState) -> Int {
        switch state {
        case .needsInput: 0
        case .working: 1
        case .noNews: 2
        case .blocked: 3
        case .unknown: 4
        case .idle: 5
        }
    }
}
