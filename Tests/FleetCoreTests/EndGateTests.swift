import FleetCore
import Testing

@Suite("The end gate")
struct EndGateTests {
    @Test("An untrustworthy zero never ends the card, and never zeroes it either")
    func untrustworthyZeroIsUntouched() {
        var state = EndGateState()
        #expect(EndGate().step(&state, activeTotal: 0, isTrustworthy: false, now: 3_600) == .untouched)
        #expect(state.zeroSince == nil)
    }

    @Test("Without the trust guard, an empty store after a background launch ends the server's card")
    func withoutTrustGuardEmptyStoreEnds() {
        var state = EndGateState()
        let verdict = EndGate().step(&state, activeTotal: 0, isTrustworthy: false, now: 0, guards: .without(.endGateTrust))
        #expect(verdict == .end)
    }

    @Test("A trustworthy zero ends at once with the default hold of 0")
    func zeroEndsImmediately() {
        var state = EndGateState()
        #expect(EndGate().step(&state, activeTotal: 0, isTrustworthy: true, now: 10) == .end)
    }

    @Test("Active sessions keep the card and reset the zero clock")
    func activeKeeps() {
        var state = EndGateState(zeroSince: 5)
        #expect(EndGate(hold: 60).step(&state, activeTotal: 2, isTrustworthy: true, now: 10) == .keep)
        #expect(state.zeroSince == nil)
    }

    @Test("With a hold, zero must last the whole hold: one second before it keeps, at it ends")
    func holdEdges() {
        let gate = EndGate(hold: 60)
        var state = EndGateState()
        #expect(gate.step(&state, activeTotal: 0, isTrustworthy: true, now: 100) == .keep)
        #expect(gate.step(&state, activeTotal: 0, isTrustworthy: true, now: 159) == .keep)
        #expect(gate.step(&state, activeTotal: 0, isTrustworthy: true, now: 160) == .end)
    }

    @Test("An unknown count in the middle of a hold neither ends nor restarts the hold")
    func unknownDuringHold() {
        let gate = EndGate(hold: 60)
        var state = EndGateState()
        _ = gate.step(&state, activeTotal: 0, isTrustworthy: true, now: 100)
        #expect(gate.step(&state, activeTotal: 0, isTrustworthy: false, now: 170) == .untouched)
        #expect(state.zeroSince == 100)
    }
}

@Suite("Fleet card dedupe")
struct DedupeTests {
    @Test("The newest updatedAt survives and the others are ended, oldest first")
    func newestSurvives() {
        let cards = [
            DedupeCandidate(id: "b", updatedAt: 10), DedupeCandidate(id: "a", updatedAt: 30),
            DedupeCandidate(id: "c", updatedAt: 20),
        ]
        let (survivor, losers) = FleetActivityDedupe.partition(cards)
        #expect(survivor?.id == "a")
        #expect(losers.map(\.id) == ["b", "c"])
    }

    @Test("A tie on updatedAt goes to the larger id, whatever the order of the activities")
    func tieBreaksOnLargerId() {
        let cards = [DedupeCandidate(id: "x1", updatedAt: 10), DedupeCandidate(id: "x2", updatedAt: 10)]
        #expect(FleetActivityDedupe.partition(cards).survivor?.id == "x2")
        #expect(FleetActivityDedupe.partition(cards.reversed()).survivor?.id == "x2")
    }

    @Test("One card or none needs no ending")
    func nothingToEnd() {
        #expect(FleetActivityDedupe.partition([]).survivor == nil)
        #expect(FleetActivityDedupe.partition([DedupeCandidate(id: "a", updatedAt: 1)]).losers.isEmpty)
    }
}
