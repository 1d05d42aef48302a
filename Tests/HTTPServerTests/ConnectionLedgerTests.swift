@testable import HTTPServer
import Testing

/// The ledger's caps, pure: admitted connections per client and in all, and the bound on refused
/// connections left open while their 503 lingers.
@Suite struct ConnectionLedgerTests {
    @Test("Refused connections linger only up to their bound; past it one is closed at once, and a close frees a place")
    func lingeringRefusalsAreBounded() {
        var ledger = ConnectionLedger(limits: .init(total: 1, perClient: 1, lingeringRefusals: 2))
        #expect(ledger.open(peer: "a") == .admitted)
        guard case .refused = ledger.open(peer: "a") else { Issue.record("a second connection was admitted"); return }
        // A client reconnecting over its cap as fast as it can: without the bound each refusal would hold
        // a descriptor outside every cap for the linger's second.
        let first = ledger.mayLingerRefusal(), second = ledger.mayLingerRefusal(), third = ledger.mayLingerRefusal()
        #expect(first && second && !third)
        #expect(ledger.lingeringRefusals == 2)
        ledger.refusalClosed()
        let afterClose = ledger.mayLingerRefusal()
        #expect(afterClose)
        #expect(ledger.counts.open == 1)
    }
}
