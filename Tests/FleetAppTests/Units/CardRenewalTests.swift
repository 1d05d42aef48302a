import FleetApp
import FleetCore
import Testing

/// The app renews its card near iOS's 8-hour end while it is in the foreground, on the device's channel
/// in channel mode; switched off (guard `renewal`) it leaves the card to be ended by iOS.
@Suite struct CardRenewalTests {
    func model() -> SessionModel {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: [.fixture("a")]))
        return model
    }

    func card() -> FleetActivity {
        FleetActivity(id: "x", content: .fixture(working: ["a"], since: 500, updatedAt: 900))
    }

    @Test("A card 7.5 hours old is replaced with a new one on the channel; a younger one is left alone")
    func renewsNearEightHours() {
        var controller = FleetActivityController()
        let old = controller.sync(
            .foregrounded, model: model(), cards: [card()], now: 1_000, newCardPushType: .channel("Y2g="),
            survivorAge: FleetActivityController.renewAfter)
        #expect(old.effects == [.request(old.reduction.contentState, pushType: .channel("Y2g="))])
        var fresh = FleetActivityController()
        let young = fresh.sync(
            .foregrounded, model: model(), cards: [card()], now: 1_000, survivorAge: FleetActivityController.renewAfter - 1)
        #expect(young.effects == [])
    }

    @Test("Without the renewal guard, or with no known age (app in the background), nothing is requested")
    func noRenewalWithoutGuardOrAge() {
        var controller = FleetActivityController()
        let off = controller.sync(
            .foregrounded, model: model(), cards: [card()], now: 1_000, guards: .without(.renewal),
            survivorAge: 9 * 3600)
        #expect(off.effects == [])
        var background = FleetActivityController()
        #expect(background.sync(.modelChanged, model: model(), cards: [card()], now: 1_000).effects == [])
    }
}
