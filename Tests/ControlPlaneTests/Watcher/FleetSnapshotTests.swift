import ControlPlane
import FleetCore
import Testing

@Suite struct FleetSnapshotTests {
    @Test("The same report again moves no revision (no re-reduction) but is heard; a changed one moves it")
    func repeatedReportIsHeardWithoutANewRevision() {
        var fleet = FleetSnapshot()
        let working = SessionReport(title: "Build", busy: true)
        fleet.put("s1", working, heardAt: 1_000)
        let revision = fleet.revision
        let sequence = fleet.sequence
        fleet.put("s1", working, heardAt: 1_600)
        #expect(fleet.revision == revision)
        #expect(fleet.heardAt["s1"] == 1_600)
        // Heard again, it may no longer be quiet: the change log carries it to the watcher.
        #expect(fleet.sessionsChanged(after: sequence) == ["s1"])
        fleet.put("s1", SessionReport(title: "Build", busy: false), heardAt: 1_700)
        #expect(fleet.revision != revision)
    }

    @Test("A watcher ticked over a repeated report decides nothing new; a session quiet before it is news again")
    func repeatedReportEndsNoNews() {
        var watcher = Watcher()
        _ = watcher.handle(.loaded(devices: [:], since: [:], at: 0))
        _ = watcher.handle(.tokenRegistered("phone", .update, .sandbox, hex: String(repeating: "a", count: 64), at: 0))
        var fleet = FleetSnapshot()
        let working = SessionReport(title: "Build", busy: true)
        fleet.put("s1", working, heardAt: 0)
        let first = watcher.handle(.ticked(fleet, at: 1)).batches
        #expect(first.count == 1)
        deliver(first, to: &watcher, at: 1)
        // Silent 11 minutes: no news (one update).
        let quiet = watcher.handle(.ticked(fleet, at: 660)).batches
        #expect(quiet.first?.contentState.rows.first?.noNewsSince == 0)
        deliver(quiet, to: &watcher, at: 660)
        // The same report again: news, without a new revision.
        fleet.put("s1", working, heardAt: 700)
        let heard = watcher.handle(.ticked(fleet, at: 706)).batches
        #expect(heard.count == 1)
        #expect(heard.first?.contentState.rows.first?.noNewsSince == nil)
    }

    @Test("The change log names the sessions put or removed after a sequence, and says when it no longer reaches back")
    func changeLogNamesChangedSessions() {
        var fleet = FleetSnapshot()
        for index in 0..<10 { fleet.put(SessionID("s\(index)"), SessionReport(title: "\(index)")) }
        let sequence = fleet.sequence
        #expect(fleet.sessionsChanged(after: sequence) == [])
        fleet.put("s3", SessionReport(title: "three", host: "other"))
        fleet.remove("s4")
        fleet.heartbeat("other", HostHeartbeat(lastSeen: 0, ttlSeconds: 60))
        #expect(fleet.sessionsChanged(after: sequence) == ["s3", "s4"])
        #expect(fleet.sessionsByHost["other"] == ["s3"])
        #expect(fleet.sessionsByHost[.local]?.contains("s3") == false)
        // A reader far behind is told to look at everything.
        for round in 0..<5_000 { fleet.put("s1", SessionReport(title: "\(round)")) }
        #expect(fleet.sessionsChanged(after: sequence) == nil)
        #expect(fleet.sessionsChanged(after: fleet.sequence - 1) == ["s1"])
        #expect(fleet.sessionsChanged(after: fleet.sequence + 1) == nil)
    }

    private func deliver(_ batches: [PushBatch], to watcher: inout Watcher, at now: UnixTime) {
        for batch in batches {
            let results = batch.targets.map { TokenResult(target: $0, status: 200) }
            _ = watcher.handle(.pushAnswered(PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: results), at: now))
        }
    }
}
