import FleetCore
import Testing

@Suite("Guard names")
struct GuardSetTests {
    @Test("Guard names are exactly the contract's")
    func contractNames() {
        #expect(Guard.allCases.map(\.rawValue) == [
            "end-gate-trust", "start-veto", "supersede", "all-accept", "push-to-start-cap", "dedupe",
            "adopt-on-register", "sid-dedupe", "updated-at-excluded", "default-host-only", "push-port-gate",
            "max-rows", "ended-report-wins", "broadcast-channels", "stale-date", "renewal", "token-forgetting",
            "priority-budget", "channel-rotation", "no-news", "server-since", "newest-start-token",
            "spare-budget",
        ])
    }

    @Test("Production runs with every guard on; without() switches off only what it names")
    func without() {
        #expect(Guard.allCases.allSatisfy { GuardSet.all.isOn($0) })
        let set = GuardSet.without(.dedupe, .maxRows)
        #expect(!set.isOn(.dedupe) && !set.isOn(.maxRows) && set.isOn(.startVeto))
    }
}
