import ControlPlane
import Dashboard
import FleetCore
import Testing

/// A control plane frozen in one state, for the dashboard to read.
struct FixedSource: DashboardSource {
    var state: LiveActivityState
    var sessionList: [SessionListing] = []
    var tokens: [TokenListing] = []
    var questions: [Question] = []

    func liveActivityState() async -> LiveActivityState { state }
    func sessions() async -> [SessionListing] { sessionList }
    func tokenListings() async -> [TokenListing] { tokens }
    func pendingQuestions() async -> [Question] { questions }

    static let now: UnixTime = 1_764_400_000

    /// One phone whose card holds five active sessions: two need input, three work.
    static func busyPhone() -> FixedSource {
        let rows = [
            Row(sid: "q1", title: "Which database?", state: .needsInput, since: now - 30),
            Row(sid: "q2", title: "Allow rm -rf build?", state: .needsInput, since: now - 125),
            Row(sid: "w1", title: "Read SessionListView.swift", state: .working, since: now - 3_700),
        ]
        let content = ContentState(working: 3, needsInput: 2, rows: rows, more: 2, updatedAt: now - 5)
        let card = LiveActivityState.Card(contentState: content, since: [:], startedAt: now - 600, origin: .pushToStart)
        let device = LiveActivityState.Device(
            deviceId: "phone", env: .sandbox, card: card, veto: nil,
            tokens: .init(pushToStart: 3, update: 1))
        let idle = LiveActivityState.Device(
            deviceId: "ipad", env: .production, card: nil, veto: ["w1"], tokens: .init(pushToStart: 1, update: 0))
        return FixedSource(
            state: LiveActivityState(enabled: false, reason: "LFG_LIVE_ACTIVITIES is not 1", devices: [device, idle]),
            sessionList: [
                SessionListing(
                    sid: "w1", report: SessionReport(title: "Read SessionListView.swift", host: "mac", busy: true),
                    displayState: .working),
                SessionListing(sid: "x", report: SessionReport(title: "Far away", host: "pi"), displayState: .unknown),
                SessionListing(sid: "a", report: SessionReport(title: "Done"), displayState: .idle),
                SessionListing(sid: "z", report: SessionReport(title: "Which database?"), displayState: .needsInput),
            ],
            tokens: [
                TokenListing(
                    deviceId: "phone", kind: .update, env: .sandbox, token: "a1b2c3d4e5f6a7b8", registeredAt: now - 90)
            ])
    }
}

@Suite struct DashboardSnapshotTests {
    @Test("Each surface draws its own row budget and overflow, from FleetCore's layout")
    func surfacesFollowTheirBudgets() async throws {
        let source = FixedSource.busyPhone()
        let snapshot = DashboardSnapshot(
            state: source.state, sessions: source.sessionList, tokens: source.tokens, now: FixedSource.now)
        let content = try #require(snapshot.devices.first?.card?.content)
        #expect(content.accent == "#FF9F0A")
        #expect(content.activeTotal == 5)
        #expect(content.rows == ["q1:needsInput", "q2:needsInput", "w1:working"])
        let bySurface = Dictionary(uniqueKeysWithValues: content.surfaces.map { ($0.surface, $0) })
        let lock = try #require(bySurface["lockScreen"])
        #expect(lock.rows.map(\.sid) == ["q1", "q2", "w1"])
        #expect(lock.rows.map(\.elapsed) == ["<1m", "2m", "1h 1m"])
        #expect(lock.overflowText == "2 More")
        let expanded = try #require(bySurface["islandExpanded"])
        #expect(expanded.rows.map(\.sid) == ["q1", "q2"])
        #expect(expanded.overflowText == "3 More")
        let compact = try #require(bySurface["islandCompact"])
        #expect(compact.rows.isEmpty && compact.showsTotal && compact.showsAccentDot)
        let minimal = try #require(bySurface["islandMinimal"])
        #expect(!minimal.showsTotal && minimal.showsAccentDot)
    }

    @Test("The snapshot marks down hosts, shortens tokens, keeps the watcher's reason, and knows when labels change")
    func listsAndStatus() {
        let source = FixedSource.busyPhone()
        let snapshot = DashboardSnapshot(
            state: source.state, sessions: source.sessionList, tokens: source.tokens, now: FixedSource.now)
        #expect(snapshot.watcher.enabled == false)
        #expect(snapshot.watcher.reason == "LFG_LIVE_ACTIVITIES is not 1")
        // Wanting a person first, then working, then the host-down unknown, then idle.
        #expect(snapshot.sessions.map(\.sid) == ["z", "w1", "x", "a"])
        #expect(snapshot.sessions.map(\.isHostDown) == [false, false, true, false])
        #expect(snapshot.tokens.map(\.token) == ["a1b2c3d4"])
        #expect(snapshot.tokens.map(\.ageLabel) == ["1m"])
        #expect(snapshot.devices[1].card == nil)
        #expect(snapshot.devices[1].veto == ["w1"])
        // w1 entered its state 3,700 s ago: its label ("1h 1m") changes in 20 s, before any other.
        #expect(snapshot.refreshAfterSeconds == 20)
        #expect(snapshot.watcher.decisionLogUnwrittenLines == 0)
    }

    @Test("Decision-log lines that could not be written reach the page's status")
    func unwrittenLogLines() {
        let source = FixedSource.busyPhone()
        var state = source.state
        state.decisionLogUnwrittenLines = 4
        let snapshot = DashboardSnapshot(state: state, sessions: source.sessionList, tokens: source.tokens, now: FixedSource.now)
        #expect(snapshot.watcher.decisionLogUnwrittenLines == 4)
    }
}
