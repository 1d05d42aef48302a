import ControlPlane
import Dashboard
import FleetCore
import Testing

@Suite struct CardUncertaintyTests {
    static let card = LiveActivityState.Card(
        contentState: ContentState(working: 1), since: [:], startedAt: 1_000, origin: .pushToStart)

    @Test("A push-started card with no token of its own is uncertain; its own token makes it certain")
    func startNotAdopted() {
        #expect(CardUncertainty.of(card: Self.card, isChannelMode: false, updateTokensRegisteredAt: [], isAnyHostDown: false)
            == [.startNotAdopted])
        #expect(CardUncertainty.of(card: Self.card, isChannelMode: false, updateTokensRegisteredAt: [900], isAnyHostDown: false)
            == [.sendsToEndedCardToken])
        #expect(CardUncertainty.of(card: Self.card, isChannelMode: false, updateTokensRegisteredAt: [900, 1_004], isAnyHostDown: false)
            .isEmpty)
    }

    @Test("A channel card, an app-made card and no card at all raise nothing; a down host always does")
    func otherCases() {
        #expect(CardUncertainty.of(card: Self.card, isChannelMode: true, updateTokensRegisteredAt: [], isAnyHostDown: false).isEmpty)
        var adopted = Self.card
        adopted.origin = .adopted
        #expect(CardUncertainty.of(card: adopted, isChannelMode: false, updateTokensRegisteredAt: [], isAnyHostDown: false).isEmpty)
        #expect(CardUncertainty.of(card: nil, isChannelMode: false, updateTokensRegisteredAt: [], isAnyHostDown: true).isEmpty)
        #expect(CardUncertainty.of(card: adopted, isChannelMode: false, updateTokensRegisteredAt: [], isAnyHostDown: true) == [.hostDown])
    }

    @Test("The snapshot carries each device's warnings with the sentence the panel shows")
    func snapshotCarriesWarnings() {
        let source = FixedSource.busyPhone()
        let snapshot = DashboardSnapshot(state: source.state, sessions: source.sessionList, tokens: source.tokens, now: FixedSource.now)
        // The busy phone's fixture has a session on a down host.
        #expect(snapshot.devices[0].uncertainty.map(\.kind).contains(.hostDown))
        #expect(snapshot.devices[0].uncertainty.allSatisfy { $0.text == $0.kind.text })
        #expect(snapshot.devices[1].uncertainty.isEmpty, "no card, nothing to doubt")
    }
}
