import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// The app's conversation with the server: listings older than what the stream said, `/ended` reports
/// the network dropped.
@Suite struct ServerConversationTests {
    /// A foreground app that has fetched once (nothing active).
    func openApp(storage: any KeyValueStorage = InMemoryKeyValueStorage()) -> PhoneHarness {
        let harness = PhoneHarness(storage: storage)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        return harness
    }

    /// An open app with `fetches` session fetches sent and not yet answered.
    func openAppAwaitingFetch(_ fetches: Int = 1) -> PhoneHarness {
        let harness = openApp()
        harness.holdsSessionFetches = true
        for _ in 0..<fetches { harness.phone.app?.refresh() }
        harness.run(for: 1)
        return harness
    }

    @Test("A listing built before a change the stream already applied does not undo it: the new card stays")
    func slowFetchOlderThanStreamChange() throws {
        let harness = openAppAwaitingFetch()
        // The server built the listing (empty) before "a" started; the stream tells of "a" first.
        harness.change { $0.upsert(SessionReport(title: "New", busy: true), for: "a") }
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)

        harness.releaseHeldFetches()
        harness.run(for: 1)
        #expect(harness.liveCards.map(\.id) == [card.id])
        #expect(harness.endCommands.isEmpty)
        #expect(harness.phone.app?.model.busy == ["a": true])
    }

    @Test("A listing that already holds the streamed change applies as it is")
    func fetchNewerThanStreamChangeApplies() throws {
        let harness = openAppAwaitingFetch()
        harness.change { $0.upsert(SessionReport(title: "New", busy: true), for: "a") }
        harness.listing = SessionsReply(sessions: [.fixture("a", title: "New"), .fixture("b")])
        harness.releaseHeldFetches()
        harness.run(for: 1)
        #expect(harness.phone.app?.model.sessions.map(\.sid) == ["a", "b"])
        #expect(harness.liveCards.first?.content.activeTotal == 2)
    }

    @Test("Answers that arrive out of order: the older listing, answered last, is ignored")
    func olderAnswerIgnored() throws {
        let harness = openAppAwaitingFetch(2)
        let held = harness.heldFetches
        try #require(held.count == 2)
        harness.phone.answer(held[1].id, .success(.sessions(SessionsReply(sessions: [.fixture("a"), .fixture("b")]))))
        harness.phone.answer(held[0].id, .success(.sessions(SessionsReply(sessions: [.fixture("a")]))))
        #expect(harness.phone.app?.model.sessions.map(\.sid) == ["a", "b"])
        #expect(harness.liveCards.map(\.content.activeTotal) == [2])
    }

    /// The app's card for "a", the server unreachable, and the person swiping the card away.
    func dismissedWhileServerDown(storage: any KeyValueStorage = InMemoryKeyValueStorage()) throws -> PhoneHarness {
        let harness = openApp(storage: storage)
        harness.change { $0.upsert(SessionReport(title: "A", busy: true), for: "a") }
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)
        harness.failingServers = ["home"]
        harness.host.personDismissed(card.id)
        harness.run(for: 1)
        try #require(harness.endedReports.count == 1)
        return harness
    }

    @Test("A failed /ended is retried with the registrations' backoff until the server takes it, then never again")
    func endedReportRetried() throws {
        let harness = try dismissedWhileServerDown()
        harness.run(for: 2)
        #expect(harness.endedReports.count == 2)  // 2 s after the failure
        harness.run(for: 4)
        #expect(harness.endedReports.count == 3)  // 4 s after the second
        harness.failingServers = []
        harness.run(for: 8)
        #expect(harness.endedReports.count == 4)
        harness.run(for: 600)
        #expect(harness.endedReports.count == 4)
    }

    @Test("An owed /ended is dropped once a newer card's token goes to the server")
    func endedReportSupersededByNewCard() throws {
        let harness = try dismissedWhileServerDown()
        harness.change { $0.upsert(SessionReport(title: "B", busy: true), for: "b") }
        harness.run(for: 1)
        #expect(harness.liveCards.count == 1)
        harness.failingServers = []
        harness.run(for: 600)
        #expect(harness.endedReports.count == 1)
        #expect(harness.registrations.last?.registration.kind == .update)
    }

    @Test("An /ended still owed when the app dies is sent by the next launch, unless a card is live by then")
    func endedReportSurvivesRelaunch() throws {
        let storage = InMemoryKeyValueStorage()
        let harness = try dismissedWhileServerDown(storage: storage)
        harness.phone.terminate()
        harness.failingServers = []
        harness.phone.launch(inForeground: false)
        harness.run(for: 1)
        #expect(harness.endedReports.count == 2)
        #expect(storage.string(forKey: FleetAppEngine.endedReportsOwedKey) == nil)

        let second = try dismissedWhileServerDown()
        second.phone.terminate()
        let token = try #require(second.host.pushToStartToken)
        let content = ContentState.fixture(working: ["a"], since: second.now, updatedAt: second.now)
        second.host.pushToStart(token: token, content: content)
        second.failingServers = []
        second.listing = SessionsReply(sessions: [.fixture("a")])
        second.phone.launch(inForeground: false)
        second.run(for: 1)
        #expect(second.endedReports.count == 1)
    }
}

/// Who ended a card, from what iOS reports.
@Suite struct CardEndCauseTests {
    static let shown = ContentState(working: 1, rows: [Row(sid: "a", title: "A", state: .working, since: 1)])

    @Test("Only a dismissal of the only card, still showing sessions, is the person's", arguments: [
        (ActivityLifecycleState.dismissed, CardEndCauseTests.shown, false, CardEndCause.personDismissed),
        (.dismissed, ContentState.zeroed(at: 5), false, .writerEnded),
        (.ended, ContentState.zeroed(at: 5), false, .writerEnded),
        (.ended, CardEndCauseTests.shown, false, .systemEnded),
        (.dismissed, CardEndCauseTests.shown, true, .superseded),
        (.dismissed, ContentState.zeroed(at: 5), true, .superseded),
    ])
    func classification(state: ActivityLifecycleState, content: ContentState, hasNewerCard: Bool, cause: CardEndCause) {
        let ended = FleetActivity(id: "old", content: content, state: state)
        let fleet = hasNewerCard ? [ended, FleetActivity(id: "new", content: Self.shown)] : [ended]
        #expect(CardEndCause.of("old", state: state, finalContent: content, fleet: fleet) == cause)
        #expect(cause.isReportedToServer == (cause == .personDismissed))
    }
}
