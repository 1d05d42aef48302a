import FleetApp
import FleetCore
import Testing

/// An app with two servers shows their sessions merged; a host that reports to both puts the same sid in
/// both listings, the real source of the duplicates guard `sid-dedupe` counts once.
@Suite struct SessionMergeTests {
    static func listing(_ sids: [SessionID]) -> SessionsReply {
        SessionsReply(sessions: sids.map { .fixture($0) })
    }

    @Test("Two servers that both know a session list it twice; the card counts it once, without sid-dedupe twice")
    func duplicateAcrossServers() {
        var model = SessionModel()
        model.applyLiveFetch(Self.listing(["a", "b"]))
        model.applyOtherServerFetch(Self.listing(["b", "c"]), from: "lab")
        #expect(model.filteredSessions.map(\.sid) == ["a", "b", "b", "c"])
        let now: UnixTime = 1_000
        let counted = FleetReducer.reduce(model.filteredSessions, now: now)
        #expect(counted.activeTotal == 3)
        #expect(counted.contentState.rows.map(\.sid).sorted() == ["a", "b", "c"])
        let doubled = FleetReducer.reduce(model.filteredSessions, now: now, guards: .without(.sidDedupe))
        #expect(doubled.activeTotal == 4)
    }

    @Test("A change from the event stream reaches the session in every server's listing; a removal removes it everywhere")
    func changesReachEveryListing() {
        var model = SessionModel()
        model.applyLiveFetch(Self.listing(["b"]))
        model.applyOtherServerFetch(Self.listing(["b"]), from: "lab")
        model.upsert(SessionReport(title: "B", host: .local, cwd: "/work", busy: false), for: "b")
        #expect(model.mergedSessions.allSatisfy { !$0.report.busy })
        model.remove("b")
        #expect(model.mergedSessions.isEmpty)
    }

    @Test("The app asks every server for its sessions and merges the other server's answer")
    func engineFetchesEveryServer() throws {
        let harness = PhoneHarness(servers: [PhoneHarness.home, PhoneHarness.lab])
        harness.listing = Self.listing(["a"])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let fetched = harness.calls.filter { if case .fetchSessions = $0.call { true } else { false } }.map(\.server)
        #expect(Set(fetched) == ["home", "lab"])
        #expect(harness.phone.app?.model.otherServers["lab"]?.map(\.sid) == ["a"])
        // The same session on both servers: one row on the card.
        #expect(harness.liveCards.first?.content.rows.map(\.sid) == ["a"])
        #expect(harness.liveCards.first?.content.working == 1)
    }
}
