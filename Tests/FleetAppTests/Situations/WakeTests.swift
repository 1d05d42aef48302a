import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// What the app does when it wakes after the server ran the card alone: nothing it knew before sleeping
/// counts as live, and nothing the server did is reported back as the app's own doing.
@Suite struct WakeTests {
    /// An app-started card for "a", its token with the server, then the app suspended.
    func suspendedWithCard(behaviour: InMemoryActivityHost.Behaviour = .init()) throws
        -> (PhoneHarness, card: ActivityID, token: PushToken)
    {
        let (harness, card) = try PhoneHarness.withAppCard(behaviour: behaviour)
        let token = try #require(harness.host.updateToken(of: card.id))
        harness.phone.suspend()
        return (harness, card.id, token)
    }

    /// The server's end push: zeroed content, dismissed at once.
    func serverEnds(_ token: PushToken, in harness: PhoneHarness) {
        harness.host.deliver(.end(.zeroed(at: harness.now), dismissal: .immediate, timestamp: harness.now),
                             toUpdateToken: token)
    }

    @Test("Woken after the server ended its card and push-started another, the app reports no /ended and adopts the new one")
    func serverEndedCardSupersededIsNotReported() throws {
        let (harness, old, token) = try suspendedWithCard()
        harness.clock.advance(by: 300)
        serverEnds(token, in: harness)
        harness.clock.advance(by: 100)
        harness.listing = SessionsReply(sessions: [.fixture("b")])
        let pushToStart = try #require(harness.host.pushToStartToken)
        guard case .applied(let new) = harness.host.pushToStart(
            token: pushToStart, content: .fixture(working: ["b"], since: harness.now, updatedAt: harness.now))
        else { throw CancellationError() }

        harness.phone.resumeInBackground()
        harness.run(for: 2)
        #expect(harness.endedReports.isEmpty)
        #expect(harness.liveCards.map(\.id) == [new])
        #expect(harness.host.isObserving(new) && !harness.host.isObserving(old))
        let newToken = try #require(harness.host.updateToken(of: new))
        #expect(harness.registrations.last?.registration == TokenRegistration(kind: .update, token: newToken))
    }

    @Test("Woken after the server ended its card (zeroed), the app does not report that end back")
    func serverEndedCardIsNotReported() throws {
        let (harness, _, token) = try suspendedWithCard()
        harness.clock.advance(by: 300)
        serverEnds(token, in: harness)
        harness.phone.resumeInBackground()
        harness.run(for: 2)
        #expect(harness.endedReports.isEmpty)
    }

    @Test("A card the system ends at its 8-hour limit is not reported as the person's end")
    func systemExpiryIsNotReported() throws {
        let (harness, card, _) = try suspendedWithCard(behaviour: .init(maxActiveDuration: 100))
        harness.phone.resumeInBackground()
        harness.run(for: 101)
        #expect(harness.host.fleetActivities.first { $0.id == card }?.state == .ended)
        #expect(harness.endedReports.isEmpty)
    }

    @Test("Foregrounded after a suspension, the app leaves the server's newer card alone until a fresh fetch answers")
    func foregroundSyncWaitsForFreshFetch() throws {
        let (harness, card, token) = try suspendedWithCard()
        let asleep = harness.now
        // While the app sleeps, "a" goes idle and busy again and "b" starts; the server keeps the card right.
        harness.clock.advance(by: 200)
        let serverCard = ContentState(
            working: 2, rows: [Row(sid: "b", title: "Session b", state: .working, since: asleep + 100),
                               Row(sid: "a", title: "Session a", state: .working, since: asleep + 150)],
            more: 0, updatedAt: harness.now)
        harness.host.deliver(.update(serverCard, timestamp: harness.now), toUpdateToken: token)
        harness.listing = SessionsReply(sessions: [.fixture("a"), .fixture("b")])

        harness.holdsSessionFetches = true
        harness.phone.foreground()
        harness.phone.app?.refresh()
        harness.run(for: 1)
        #expect(harness.updateCommands.isEmpty)
        #expect(harness.liveCards.map(\.content) == [serverCard])

        // The fresh answer is the same truth: the server's baselines stay, nothing is rewritten.
        harness.releaseHeldFetches()
        harness.run(for: 1)
        #expect(harness.liveCards.map(\.id) == [card])
        #expect(harness.updateCommands.isEmpty)
        #expect(harness.phone.app?.controller.since["a"]?.since == asleep + 150)
    }

    @Test("A session the app learned of late keeps the server's earlier baseline once the server has pushed it")
    func serverEarlierBaselineKept() throws {
        let (harness, card) = try PhoneHarness.withAppCard()
        let token = try #require(harness.host.updateToken(of: card.id))
        // The server saw "a" start an hour before the app launched, and pushes that once it adopts the card.
        let started = harness.now - 3600
        harness.host.deliver(.update(.fixture(working: ["a"], since: started, updatedAt: harness.now),
                                     timestamp: harness.now), toUpdateToken: token)
        harness.phone.app?.refresh()
        harness.run(for: 15)
        #expect(harness.updateCommands.isEmpty)
        #expect(harness.liveCards.first?.content.rows.map(\.since) == [started])
        #expect(harness.phone.app?.controller.since["a"]?.since == started)
    }

    @Test("An answer to a fetch sent before the suspension does not count as live after the wake")
    func preSuspensionFetchIgnored() throws {
        let (harness, _, _) = try suspendedWithCard()
        harness.holdsSessionFetches = true
        harness.phone.foreground()
        harness.phone.app?.refresh()
        harness.run(for: 1)
        harness.phone.suspend()  // the fetch was sent while awake, before this suspension
        harness.listing = SessionsReply(sessions: [])
        harness.phone.foreground()
        harness.releaseHeldFetches()
        harness.run(for: 1)
        #expect(harness.phone.app?.model.liveSessionsFetchedOnce == false)
        #expect(harness.endCommands.isEmpty)
    }
}
