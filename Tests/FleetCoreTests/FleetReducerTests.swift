import FleetCore
import Testing

@Suite("The fleet reducer")
struct FleetReducerTests {
    @Test("Counts cover every active session, not only the rendered rows")
    func countsCoverEverySession() {
        let sessions: [FleetSession] = [.working("a"), .working("b"), .working("c"), .waiting("d"), .working("e")]
        let reduction = FleetReducer.reduce(sessions, now: 100)
        #expect(reduction.contentState.working == 4)
        #expect(reduction.contentState.needsInput == 1)
        #expect(reduction.activeTotal == 5)
        #expect(reduction.contentState.rows.count == 3)
        #expect(reduction.contentState.more == 2)
        #expect(reduction.contentState.updatedAt == 100)
    }

    @Test("At most three rows, so the lock screen never clips the header")
    func maxRowsGuard() {
        let sessions: [FleetSession] = (0..<6).map { .working(SessionID("s\($0)")) }
        #expect(FleetReducer.reduce(sessions, now: 0).contentState.rows.count == 3)
        let unguarded = FleetReducer.reduce(sessions, now: 0, guards: .without(.maxRows))
        #expect(unguarded.contentState.rows.count == 6)
        #expect(unguarded.contentState.more == 0)
    }

    @Test("Rows put needs-input first, then the oldest since, then sid ascending")
    func rowOrder() {
        let previous: SinceMap = [
            "late": SinceEntry(state: .working, since: 50),
            "early": SinceEntry(state: .working, since: 10),
            "tieB": SinceEntry(state: .working, since: 30),
            "tieA": SinceEntry(state: .working, since: 30),
            "ask": SinceEntry(state: .needsInput, since: 90),
        ]
        let sessions: [FleetSession] = [.working("late"), .working("early"), .working("tieB"), .working("tieA"), .waiting("ask")]
        let reduction = FleetReducer.reduce(sessions, previousSince: previous, now: 100, guards: .without(.maxRows))
        #expect(reduction.contentState.rows.map(\.sid) == ["ask", "early", "tieA", "tieB", "late"])
    }

    @Test("Since sticks while the state holds and restarts when it changes")
    func stickySince() {
        let first = FleetReducer.reduce([.working("a"), .working("b")], now: 100)
        let second = FleetReducer.reduce([.working("a"), .waiting("b")], previousSince: first.since, now: 160)
        #expect(second.since["a"] == SinceEntry(state: .working, since: 100))
        #expect(second.since["b"] == SinceEntry(state: .needsInput, since: 160))
    }

    @Test("Since is kept for sessions beyond the visible rows, so scrolling back keeps elapsed time")
    func sinceKeptOffscreen() {
        let sessions: [FleetSession] = ["a", "b", "c", "d"].map { .working($0) }
        let first = FleetReducer.reduce(sessions, now: 100)
        #expect(first.since.count == 4)
        #expect(!first.contentState.rows.map(\.sid).contains("d"))
        let later = FleetReducer.reduce([.working("d")], previousSince: first.since, now: 500)
        #expect(later.contentState.rows == [Row(sid: "d", title: "Session d", state: .working, since: 100)])
    }

    @Test("Sessions that stop being active drop out of the since map")
    func sinceForgetsInactive() {
        let first = FleetReducer.reduce([.working("a")], now: 100)
        let idle = FleetReducer.reduce([.fixture("a")], previousSince: first.since, now: 200)
        #expect(idle.since.isEmpty)
        let again = FleetReducer.reduce([.working("a")], previousSince: idle.since, now: 300)
        #expect(again.since["a"]?.since == 300)
    }

    @Test("A sid seen twice counts once, and the first occurrence wins")
    func duplicateSid() {
        let sessions: [FleetSession] = [.working("a"), .waiting("a"), .working("b")]
        let reduction = FleetReducer.reduce(sessions, now: 0)
        #expect(reduction.contentState.working == 2)
        #expect(reduction.contentState.needsInput == 0)
        #expect(reduction.contentState.rows.map(\.sid) == ["a", "b"])

        let unguarded = FleetReducer.reduce(sessions, now: 0, guards: .without(.sidDedupe))
        #expect(unguarded.activeTotal == 3)
        #expect(unguarded.contentState.rows.map(\.sid) == ["a", "a", "b"])
    }

    @Test("Blocked, idle and archived sessions are not rows and not counted")
    func inactiveSessionsAreNotRows() {
        let sessions: [FleetSession] = [
            .fixture("blocked", busy: true, blocked: true), .fixture("idle"), .fixture("gone", busy: true, archived: true),
        ]
        let reduction = FleetReducer.reduce(sessions, now: 0)
        #expect(reduction.contentState == ContentState(updatedAt: 0))
        #expect(reduction.isTrustworthy)
    }

    @Test("Any session on a down host makes the reduction untrustworthy")
    func unknownIsUntrustworthy() {
        let reduction = FleetReducer.reduce([.fixture("a", busy: true, isHostDown: true)], now: 0)
        #expect(reduction.activeTotal == 0)
        #expect(!reduction.isTrustworthy)
    }

    @Test("Sessions in hidden folders are left out entirely")
    func hiddenDirs() {
        let sessions: [FleetSession] = [.working("in", cwd: "/work/secret/x"), .working("out", cwd: "/work/secretive")]
        let reduction = FleetReducer.reduce(sessions, hiddenDirs: ["/work/secret"], now: 0)
        #expect(reduction.contentState.rows.map(\.sid) == ["out"])
        #expect(reduction.since.keys.sorted() == ["out"])
    }

    @Test("A hidden session on a down host does not make the card untrustworthy")
    func hiddenUnknownIsIgnored() {
        let session = FleetSession.fixture("a", cwd: "/hidden", busy: true, isHostDown: true)
        #expect(FleetReducer.reduce([session], hiddenDirs: ["/hidden"], now: 0).isTrustworthy)
    }

    @Test("Relevance and accent follow needs-input")
    func relevanceAndAccent() {
        let waiting = FleetReducer.reduce([.waiting("a")], now: 0)
        #expect(waiting.relevanceScore == 100)
        #expect(waiting.accent == .amber)
        #expect(waiting.accent.hex == "#FF9F0A")
        let working = FleetReducer.reduce([.working("a")], now: 0)
        #expect(working.relevanceScore == 90)
        #expect(working.accent.hex == "#30D158")
    }

    @Test("A host outage does not restart the timers of its sessions")
    func sinceSurvivesHostOutage() {
        let before = FleetReducer.reduce([.working("a")], now: 100)
        let down = FleetReducer.reduce([.fixture("a", busy: true, isHostDown: true)], previousSince: before.since, now: 200)
        #expect(down.since["a"] == SinceEntry(state: .working, since: 100))
        #expect(down.activeTotal == 0)
        let back = FleetReducer.reduce([.working("a")], previousSince: down.since, now: 300)
        #expect(back.contentState.rows.first?.since == 100)
    }
}
