import FleetApp
import FleetCore
import Testing

/// The seed's lifecycle situations that touch the app, each run on a simulated phone.
@Suite struct SeedSituationTests {
    @Test("A: a session starting with the app open puts a token card up at once and registers its token")
    func situationA() throws {
        let harness = PhoneHarness()
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        #expect(harness.liveCards.isEmpty)

        harness.change { $0.upsert(SessionReport(title: "Fix the build", busy: true), for: "a") }

        // No time has passed: the card is up within the same frame, and it is push-capable.
        let card = try #require(harness.liveCards.first)
        #expect(harness.requestCommands.map(\.1) == [.token])
        #expect(card.content.working == 1)
        #expect(card.content.rows.map(\.sid) == ["a"])

        harness.run(for: 1)
        let token = try #require(harness.host.updateToken(of: card.id))
        let updateRegistrations = harness.calls.filter {
            if case .registerToken(let registration, _, _) = $0.call { registration.kind == .update } else { false }
        }
        #expect(updateRegistrations.map(\.server) == ["home"])
        #expect(updateRegistrations.map(\.call) == [
            .registerToken(TokenRegistration(kind: .update, token: token), env: .sandbox,
                           deviceID: PhoneHarness.deviceID)
        ])
    }

    /// The phone is idle, the server push-starts a card, and iOS launches the app in the background
    /// with an empty store whose first refresh has not answered yet.
    func backgroundLaunchAfterPushStart(guards: GuardSet) throws -> (PhoneHarness, ActivityID) {
        let harness = PhoneHarness(guards: guards)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        harness.phone.terminate()

        harness.listing = SessionsReply(sessions: [.fixture("a")])
        let pushToStart = try #require(harness.host.pushToStartToken)
        let outcome = harness.host.pushToStart(
            token: pushToStart, content: .fixture(working: ["a"], since: harness.now, updatedAt: harness.now))
        guard case .applied(let cardID) = outcome else {
            Issue.record("push-to-start was refused")
            throw CancellationError()
        }
        harness.clock.advance(by: 1)
        harness.holdsSessionFetches = true
        harness.phone.launch(inForeground: false)
        harness.run(for: 2)
        return (harness, cardID)
    }

    @Test("C: a background launch with an empty store leaves the server's card untouched")
    func situationC() throws {
        let (harness, cardID) = try backgroundLaunchAfterPushStart(guards: .all)
        #expect(harness.liveCards.map(\.id) == [cardID])
        #expect(harness.endCommands.isEmpty)
        #expect(harness.updateCommands.isEmpty)
        #expect(harness.endedReports.isEmpty)
        // The woken app hands the server the new card's token, so it can keep the card alive.
        let token = try #require(harness.host.updateToken(of: cardID))
        #expect(harness.registrations.contains { $0.registration == TokenRegistration(kind: .update, token: token) })

        // The first refresh lands: the card says what the truth says, so nothing is pushed or ended.
        harness.releaseHeldFetches()
        harness.run(for: 1)
        #expect(harness.liveCards.map(\.id) == [cardID])
        #expect(harness.updateCommands.isEmpty)
        #expect(harness.endCommands.isEmpty)
    }

    @Test("C without the end gate's trust rule: the empty store reads as zero and kills the server's card")
    func situationCWithoutTrust() throws {
        let (harness, cardID) = try backgroundLaunchAfterPushStart(guards: .without(.endGateTrust))
        #expect(harness.liveCards.isEmpty)
        #expect(harness.endCommands == [cardID])
        #expect(harness.endedReports.count == 1)
    }

    @Test("D: when everything finishes, the app ends its card at once and reports /ended")
    func situationD() throws {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)
        #expect(harness.host.isObserving(card.id))

        harness.change { $0.setBusy(false, for: "a") }

        #expect(harness.liveCards.isEmpty)
        #expect(harness.host.commands.last == .end(card.id, ContentState.zeroed(at: harness.now), .immediate))
        #expect(!harness.host.isObserving(card.id))
        #expect(harness.endedReports.map(\.call) == [.reportEnded(env: .sandbox, deviceID: PhoneHarness.deviceID)])
        #expect(harness.endedReports.map(\.server) == ["home"])
    }

    func hostGoesDown(guards: GuardSet) throws -> (PhoneHarness, FleetActivity) {
        let harness = PhoneHarness(guards: guards)
        harness.listing = SessionsReply(sessions: [.fixture("a", host: "mac"), .fixture("b", host: "mac")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)
        #expect(card.content.working == 2)

        harness.listing = SessionsReply(sessions: [
            .fixture("a", host: "mac", displayState: .unknown), .fixture("b", host: "mac", displayState: .unknown),
        ])
        harness.clock.advance(by: 30)
        harness.phone.app?.refresh()
        harness.run(for: 1)
        return (harness, card)
    }

    @Test("E: a host known down leaves the card neither ended nor zeroed")
    func situationE() throws {
        let (harness, card) = try hostGoesDown(guards: .all)
        #expect(harness.phone.app?.model.fleetCountIsTrustworthy == false)
        #expect(harness.liveCards == [card])
        #expect(harness.endCommands.isEmpty)
        #expect(harness.updateCommands.isEmpty)
        #expect(harness.endedReports.isEmpty)
    }

    @Test("E without the end gate's trust rule: a down host reads as zero and the card is ended")
    func situationEWithoutTrust() throws {
        let (harness, card) = try hostGoesDown(guards: .without(.endGateTrust))
        #expect(harness.liveCards.isEmpty)
        #expect(harness.endCommands == [card.id])
    }

    /// The app made a card; then the server, not knowing, push-starts a second one.
    func twoCards(guards: GuardSet) throws -> (PhoneHarness, older: ActivityID, newer: ActivityID) {
        let harness = PhoneHarness(guards: guards)
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let older = try #require(harness.liveCards.first).id

        harness.clock.advance(by: 5)
        let pushToStart = try #require(harness.host.pushToStartToken)
        let outcome = harness.host.pushToStart(
            token: pushToStart, content: .fixture(working: ["a"], since: harness.now - 6, updatedAt: harness.now))
        guard case .applied(let newer) = outcome else {
            Issue.record("push-to-start was refused")
            throw CancellationError()
        }
        harness.run(for: 1)
        return (harness, older, newer)
    }

    @Test("G: when a second card arrives, the older one ends after its token task is cancelled")
    func situationG() throws {
        let (harness, older, newer) = try twoCards(guards: .all)
        #expect(harness.liveCards.map(\.id) == [newer])
        #expect(harness.endCommands == [older])

        let arrival = harness.phone.app?.trace.compactMap { entry -> [LiveActivityManager.Effect]? in
            guard case .managed(.activityArrived(newer, _), let effects) = entry.event else { return nil }
            return effects
        }
        #expect(arrival == [[.stopObservingActivity(older), .end(older, dismissal: .immediate), .observeActivity(newer)]])

        // The last update token the server got is the survivor's: it addresses the visible card.
        let survivorToken = try #require(harness.host.updateToken(of: newer))
        let lastUpdate = harness.registrations.last { $0.registration.kind == .update }
        #expect(lastUpdate?.registration.token == survivorToken)
    }

    @Test("G without dedupe: two cards stay on the lock screen")
    func situationGWithoutDedupe() throws {
        let (harness, older, newer) = try twoCards(guards: .without(.dedupe))
        #expect(Set(harness.liveCards.map(\.id)) == [older, newer])
        #expect(harness.endCommands.isEmpty)
    }
}
