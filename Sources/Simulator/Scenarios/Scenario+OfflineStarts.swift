import FleetCore

/// Starts that reach a phone only through APNs' store: the phone is offline when a session begins.
extension Scenario {
    /// The app was launched twice (iOS minted a new push-to-start token at the second launch; the server
    /// holds both), then the phone loses its network six times, and each time a session begins while it is
    /// away. APNs keeps one push per device for an offline phone, so the start it hands over on reconnect
    /// must be the one to the current token (guard `newest-start-token`).
    static let offlineStarts = Scenario(
        "offline-start", "sessions begin while the phone is offline; APNs hands the stored start over on reconnect",
        duration: 6 * 900 + 600,
        good: "a card from each reconnect while the session runs; no card lost to a start to a replaced token",
        holes: "while the phone is offline no product can show the new session"
    ) { sim in
        let phone = sim.addIdlePhone()
        sim.at(100) { phone.open($0) }
        sim.at(120) { phone.leave($0) }
        sim.at(160) { phone.terminate($0) }
        for cycle in 0..<6 {
            let base = 300 + Double(cycle) * 900
            let sid = SessionID("away\(cycle + 1)")
            sim.at(base) { phone.setOnline(false, $0) }
            sim.at(base + 60) { $0.begin(sid, "Write the migration") }
            sim.at(base + 300) { phone.setOnline(true, $0) }
            sim.at(base + 600) { $0.finish(sid) }
        }
    }
}
