import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// The token manager: what it sends, what it skips, and how it retries.
@Suite struct TokenManagerTests {
    static let start = PushToken(hex: "aaaaaaaa00000000000000000000000000000000")!
    static let newer = PushToken(hex: "bbbbbbbb00000000000000000000000000000000")!
    static let card: ActivityID = "card-1"

    @Test("A push-to-start token fired twice is registered once")
    func doubleFiredTokenSentOnce() {
        var manager = LiveActivityManager(targets: ["home"])
        let first = manager.handle(.pushToStartTokenIssued(Self.start))
        let second = manager.handle(.pushToStartTokenIssued(Self.start))
        #expect(first == [.register(TokenRegistration(kind: .pushToStart, token: Self.start), server: "home")])
        #expect(second == [])
    }

    @Test("Within one run a card's unchanged token is sent once; a new run sends it once more")
    func unchangedTokenSentOncePerRun() {
        var run = LiveActivityManager(targets: ["home"])
        let card = FleetActivity(id: Self.card, content: ContentState(working: 1))
        let registration = TokenRegistration(kind: .update, token: Self.start)
        _ = run.handle(.launched(fleet: [card], retired: []))
        #expect(run.handle(.pushTokenIssued(Self.card, Self.start)) == [.register(registration, server: "home")])
        _ = run.handle(.registrationAnswered(registration, server: "home", succeeded: true, at: 0))
        #expect(run.handle(.pushTokenIssued(Self.card, Self.start)) == [])

        // The next launch re-attaches: a server that lost the token since gets it back.
        var next = LiveActivityManager(targets: ["home"])
        let launch = next.handle(.launched(fleet: [card], retired: []))
        #expect(launch == [.observeActivityUpdates, .observePushToStartTokens, .observeActivity(Self.card)])
        #expect(next.handle(.pushTokenIssued(Self.card, Self.start)) == [.register(registration, server: "home")])
    }

    @Test("A failed registration is retried after 2 s, then 4 s, and not a moment before")
    func failedRegistrationRetriesWithBackoff() {
        var manager = LiveActivityManager(targets: ["home"])
        let registration = TokenRegistration(kind: .pushToStart, token: Self.start)
        _ = manager.handle(.pushToStartTokenIssued(Self.start))
        _ = manager.handle(.registrationAnswered(registration, server: "home", succeeded: false, at: 100))
        #expect(manager.nextRetryAt == 102)
        #expect(manager.handle(.retriesDue(at: 101.99)) == [])
        #expect(manager.handle(.retriesDue(at: 102)) == [.register(registration, server: "home")])
        #expect(manager.nextRetryAt == nil)  // in flight again

        _ = manager.handle(.registrationAnswered(registration, server: "home", succeeded: false, at: 103))
        #expect(manager.nextRetryAt == 107)
        _ = manager.handle(.retriesDue(at: 107))
        _ = manager.handle(.registrationAnswered(registration, server: "home", succeeded: true, at: 108))
        #expect(manager.nextRetryAt == nil)
        #expect(manager.sent[RegistrationSlot(server: "home", kind: .pushToStart)] == Self.start)
    }

    @Test("Backoff doubles up to its maximum")
    func backoffDoubles() {
        let backoff = RegistrationBackoff(initial: 2, maximum: 300)
        #expect((1...10).map { backoff.delay(afterFailures: $0) } == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
    }

    @Test("A late answer for a superseded token changes nothing; the newer token is what counts")
    func lateAnswerForSupersededToken() {
        var manager = LiveActivityManager(targets: ["home"])
        _ = manager.handle(.pushToStartTokenIssued(Self.start))
        _ = manager.handle(.pushToStartTokenIssued(Self.newer))
        _ = manager.handle(.registrationAnswered(
            TokenRegistration(kind: .pushToStart, token: Self.start), server: "home", succeeded: true, at: 1))
        #expect(manager.sent[RegistrationSlot(server: "home", kind: .pushToStart)] == nil)
        _ = manager.handle(.registrationAnswered(
            TokenRegistration(kind: .pushToStart, token: Self.newer), server: "home", succeeded: false, at: 1))
        #expect(manager.nextRetryAt == 3)
    }

    @Test("An ended card's pending retry is dropped and its late tokens are ignored")
    func endedCardForgetsItsRegistration() {
        var manager = LiveActivityManager(targets: ["home"])
        let card = FleetActivity(id: Self.card, content: ContentState(working: 1))
        _ = manager.handle(.activityArrived(Self.card, fleet: [card]))
        _ = manager.handle(.pushTokenIssued(Self.card, Self.start))
        _ = manager.handle(.registrationAnswered(
            TokenRegistration(kind: .update, token: Self.start), server: "home", succeeded: false, at: 0))
        #expect(manager.nextRetryAt == 2)

        let shown = ContentState(working: 1)
        #expect(manager.handle(.activityStateChanged(Self.card, .dismissed, content: shown, fleet: [])) == [
            .stopObservingActivity(Self.card), .noteEndedElsewhere(Self.card, .personDismissed, finalContent: shown),
        ])
        #expect(manager.nextRetryAt == nil)
        #expect(manager.handle(.pushTokenIssued(Self.card, Self.newer)) == [])
    }

    @Test("A failed registration on the phone is retried in virtual time until the server takes it")
    func engineRetriesUntilAccepted() throws {
        let harness = PhoneHarness()
        harness.failingServers = ["home"]
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        #expect(harness.registrations.count == 1)
        harness.run(for: 2)
        #expect(harness.registrations.count == 2)
        harness.failingServers = []
        harness.run(for: 10)
        #expect(harness.registrations.count == 3)
        harness.run(for: 600)
        #expect(harness.registrations.count == 3)
    }

    @Test("After a relaunch the re-attached card's token and the re-minted start token are both sent once")
    func relaunchReattaches() throws {
        let storage = InMemoryKeyValueStorage()
        let harness = PhoneHarness(storage: storage)
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)
        #expect(harness.registrations.map(\.registration.kind) == [.pushToStart, .update])

        harness.phone.terminate()
        harness.clock.advance(by: 600)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        #expect(harness.host.isObserving(card.id))
        #expect(harness.liveCards.map(\.id) == [card.id])
        #expect(harness.registrations.map(\.registration.kind) == [.pushToStart, .update, .update, .pushToStart])
        harness.phone.foreground()
        harness.run(for: 60)
        #expect(harness.registrations.count == 4)
    }
}
