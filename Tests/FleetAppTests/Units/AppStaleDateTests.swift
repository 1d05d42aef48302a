import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// Guard `stale-date` on the app's side: its own requests and updates carry a stale date, and a card it
/// keeps right is refreshed before it, so a card nobody updates after the app sleeps turns stale.
@Suite struct AppStaleDateTests {
    @Test("The app's own card carries a stale date LFG_STALE_AFTER_S ahead, and an update moves it")
    func ownCardCarriesStaleDate() throws {
        let (harness, card) = try PhoneHarness.withAppCard(["a"])
        let staleAfter = CardStaleness.defaultStaleAfterSeconds
        let started = try #require(card.staleDate)
        #expect(abs(started - (harness.now - 1 + staleAfter)) <= 1)
        harness.run(for: 5)
        harness.change { $0.upsert(SessionReport(title: "b", host: .local, cwd: "/b", busy: true), for: "b") }
        harness.run(for: 1)
        let updated = try #require(harness.liveCards.first?.staleDate)
        #expect(abs(updated - (harness.now - 1 + staleAfter)) <= 1)
        #expect(updated > started)
    }

    @Test("A steady card the app keeps is refreshed before its stale date, so it never reads stale")
    func steadyCardIsRefreshed() throws {
        let (harness, _) = try PhoneHarness.withAppCard(["a"])
        let staleAfter = CardStaleness.defaultStaleAfterSeconds
        // Something syncs the app every 15 s (the foreground refresh); the card must never go stale.
        for _ in 0..<Int(3 * staleAfter / 15) {
            harness.phone.app?.refresh()
            harness.run(for: 15)
            let card = try #require(harness.liveCards.first)
            #expect(!card.isMarkedStale(at: harness.now))
        }
    }

    @Test("Without stale-date the app's update clears the stale date: a card it wrote never reads stale")
    func withoutGuardNoStaleDate() throws {
        let harness = PhoneHarness(guards: .without(.staleDate))
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)
        #expect(card.staleDate == nil)
        #expect(!card.isMarkedStale(at: harness.now + 10 * CardStaleness.defaultStaleAfterSeconds))
    }

    @Test("The controller refreshes a kept card whose stale date is near, and leaves one far from it alone")
    func controllerRefreshRule() {
        var controller = FleetActivityController()
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [.fixture("a")]))
        let now: UnixTime = 1_000
        var first = controller.sync(.launch, model: model, cards: [], now: now, staleAfter: 120)
        guard case .request(let content, _)? = first.effects.first else {
            Issue.record("expected a request, got \(first.effects)")
            return
        }
        let far = FleetActivity(id: "c1", content: content, staleDate: now + 100)
        first = controller.sync(.modelChanged, model: model, cards: [far], now: now + 10, staleAfter: 120)
        #expect(first.effects.isEmpty)
        let near = FleetActivity(id: "c1", content: content, staleDate: now + 30)
        let refreshed = controller.sync(.modelChanged, model: model, cards: [near], now: now + 10, staleAfter: 120)
        #expect(refreshed.effects.count == 1)
        let untouched = controller.sync(.modelChanged, model: model, cards: [near], now: now + 10, staleAfter: nil)
        #expect(untouched.effects.isEmpty)
    }
}
