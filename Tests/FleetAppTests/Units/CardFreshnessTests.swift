import FleetApp
import Testing

@Suite struct CardFreshnessTests {
    @Test("A stale card says to open the app, stops its timers and mutes its accent; a fresh one draws as live")
    func staleCardIsDrawnStale() {
        let stale = CardFreshness(isStale: true)
        #expect(stale.statusLine == "Not up to date. Open LFG to refresh.")
        #expect(!stale.showsLiveElapsed)
        #expect(stale.mutesAccent)
        #expect(stale.activeLabel.contains("last known"))
        let fresh = CardFreshness(isStale: false)
        #expect(fresh.statusLine == nil)
        #expect(fresh.showsLiveElapsed && !fresh.mutesAccent)
        #expect(fresh.activeLabel == "Active")
    }
}
