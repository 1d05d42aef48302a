import FleetCore
import Foundation
import Testing

/// The silence rule (seed 003, guard `no-news`): a busy session that said nothing for too long while its host
/// is up reads as "no news", a working row that says so, never a zero and never an end.
@Suite("No news (silence rule)")
struct NoNewsTests {
    static let rule = SilenceRule.standard
    static let busy = SessionReport(title: "build", busy: true)

    private func reduce(
        _ sessions: [FleetSession], now: UnixTime, previousSince: SinceMap = [:], guards: GuardSet = .all
    ) -> FleetReduction {
        FleetReducer.reduce(sessions, previousSince: previousSince, now: now, guards: guards, silence: Self.rule)
    }

    @Test("The default is 10 minutes and defined once")
    func defaultThreshold() {
        #expect(SilenceRule.defaultSeconds == 600)
        #expect(SilenceRule.standard.noNewsAfter == 600)
    }

    @Test("Quiet exactly at the threshold, not a second before; never heard is never quiet")
    func edges() {
        #expect(!Self.rule.isQuiet(heardAt: 1_000, now: 1_599))
        #expect(Self.rule.isQuiet(heardAt: 1_000, now: 1_600))
        #expect(!Self.rule.isQuiet(heardAt: nil, now: 1_000_000))
        #expect(Self.rule.quietAt(heardAt: 1_000) == 1_600)
    }

    @Test("no-news: a busy session silent 11 minutes is a counted working row whose line says no news, since kept")
    func quietBusySession() throws {
        let session = FleetSession(sid: "s1", report: Self.busy, heardAt: 1_000)
        let working = reduce([session], now: 1_100)
        let started = try #require(working.contentState.rows.first).since
        #expect(working.contentState.rows.first?.isNoNews == false)

        let quiet = reduce([session], now: 1_000 + 660, previousSince: working.since)
        let row = try #require(quiet.contentState.rows.first)
        #expect(row.noNewsSince == 1_000)
        #expect(row.state == .working)
        #expect(row.since == started)
        #expect(quiet.contentState.working == 1)
        #expect(quiet.activeTotal == 1)
        #expect(quiet.isTrustworthy)
        #expect(session.displayState(at: 1_660, silence: Self.rule) == .noNews)
        #expect(row.noNewsLine(now: 1_660) == "No news for 11m")
    }

    @Test("Without no-news the quiet session reads as confidently working")
    func withoutGuard() throws {
        let session = FleetSession(sid: "s1", report: Self.busy, heardAt: 1_000)
        let row = try #require(reduce([session], now: 5_000, guards: .without(.noNews)).contentState.rows.first)
        #expect(row.noNewsSince == nil)
        #expect(row.noNewsLine(now: 5_000) == nil)
    }

    @Test("Only busy sessions go quiet: waiting on a person and idle are silent by nature; a down host wins")
    func onlyBusy() {
        let asking = SessionReport(title: "q", busy: true, prompt: Prompt(kind: .question, text: "?"))
        #expect(DisplayState.resolve(asking, isHostDown: false, isQuiet: true) == .needsInput)
        #expect(DisplayState.resolve(SessionReport(title: "i"), isHostDown: false, isQuiet: true) == .idle)
        #expect(DisplayState.resolve(Self.busy, isHostDown: true, isQuiet: true) == .unknown)
        #expect(DisplayState.resolve(Self.busy, isHostDown: false, isQuiet: true) == .noNews)
        #expect(DisplayState.noNews.isActive)
    }

    @Test("A card of only no-news sessions is never zeroed nor ended by the end gate")
    func neverEnds() {
        let quiet = reduce([FleetSession(sid: "s1", report: Self.busy, heardAt: 0)], now: 100_000)
        #expect(quiet.contentState.activeTotal == 1)
        var gate = EndGateState()
        #expect(EndGate().step(&gate, activeTotal: quiet.activeTotal, isTrustworthy: quiet.isTrustworthy, now: 100_000) == .keep)
    }

    @Test("A row's noNewsSince is left out of the JSON when nil and read back when set; older JSON decodes")
    func wire() throws {
        let plain = Row(sid: "s1", title: "t", state: .working, since: 5)
        let plainJSON = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(!plainJSON.contains("noNewsSince"))
        let quiet = Row(sid: "s1", title: "t", state: .working, since: 5, noNewsSince: 7)
        #expect(try JSONDecoder().decode(Row.self, from: JSONEncoder().encode(quiet)) == quiet)
        let old = try JSONDecoder().decode(Row.self, from: Data(#"{"sid":"s1","title":"t","state":"working","since":5}"#.utf8))
        #expect(old == plain)
    }

    @Test("SurfaceLayout gives each surface's no-news rows and their line; compact surfaces still count them")
    func surfaces() {
        let rows = [
            Row(sid: "a", title: "a", state: .working, since: 0, noNewsSince: 100),
            Row(sid: "b", title: "b", state: .working, since: 0),
        ]
        let state = ContentState(working: 2, rows: rows, updatedAt: 800)
        let lock = SurfaceLayout(state, on: .lockScreen)
        #expect(lock.noNewsRows.map(\.sid) == ["a"])
        #expect(lock.line(for: rows[0], now: 100 + 12 * 60) == "No news for 12m")
        #expect(lock.line(for: rows[1], now: 800) == nil)
        let compact = SurfaceLayout(state, on: .islandCompact)
        #expect(compact.noNewsRows.isEmpty)
        #expect(compact.activeTotal == 2)
    }

    @Test("A quiet session changes the card (one update), and news clears it")
    func changesTheCard() {
        let session = FleetSession(sid: "s1", report: Self.busy, heardAt: 1_000)
        let first = reduce([session], now: 1_100)
        let quiet = reduce([session], now: 1_700, previousSince: first.since).contentState
        #expect(!first.contentState.isSame(as: quiet))
        var heard = session
        heard.heardAt = 1_700
        #expect(reduce([heard], now: 1_700, previousSince: first.since).contentState.isSame(as: first.contentState))
    }
}
