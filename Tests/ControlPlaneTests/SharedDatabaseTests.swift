import APNsMock
import Foundation
import Testing

/// Contract 8.4: several `lfg serve` instances on one PostgreSQL database, each device's card driven by one.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct SharedDatabaseTests {
    static let devices = 9

    static func startToken(_ device: Int) -> String { String(format: "%064x", 0x1000 + device) }
    static func updateToken(_ device: Int) -> String { String(format: "%064x", 0x2000 + device) }

    /// The latest push to `token` shows `working` sessions at work.
    static func shows(_ working: Int, on token: String, in records: [MockRecord]) -> Bool {
        records.last { $0.token == token && $0.event != nil }?.working == working
    }

    @Test(
        "Three instances: reports spread, each card pushed by one instance, a kill -9 taken over with no duplicate start and nothing lost",
        .timeLimit(.minutes(3)))
    func threeInstancesSurviveKill() async throws {
        let world = try await SharedDatabaseWorld(instances: 3)
        defer { world.stopAll() }
        // Each phone registers with a different instance (its first registration claims it there).
        for device in 0..<Self.devices {
            try await world.call(
                device % 3, "POST", "/api/push/live-activity/start-token",
                #"{"token":"\#(Self.startToken(device))","env":"sandbox","deviceId":"phone-\#(device)"}"#)
        }
        try await world.call(0, "PUT", "/api/sessions/s0", #"{"title":"Build","busy":true}"#)
        try await world.pushes.waitUntil("a start on every phone") { records in
            (0..<Self.devices).allSatisfy { device in records.contains { $0.token == Self.startToken(device) && $0.event == "start" } }
        }
        // The simulated phone: its started card hands its update token to some other instance.
        for device in 0..<Self.devices {
            try await world.call(
                (device + 1) % 3, "POST", "/api/push/live-activity/update-token",
                #"{"token":"\#(Self.updateToken(device))","env":"sandbox","deviceId":"phone-\#(device)"}"#)
        }
        // Reports spread over the three instances.
        for session in 1...6 {
            try await world.call(session % 3, "PUT", "/api/sessions/s\(session)", #"{"title":"Task \#(session)","busy":true}"#)
        }
        try await world.pushes.waitUntil("every card showing 7 sessions at work") { records in
            (0..<Self.devices).allSatisfy { Self.shows(7, on: Self.updateToken($0), in: records) }
        }
        let beforeKill = world.pushes.all
        for device in 0..<Self.devices {
            let connections = Set(beforeKill.filter { [Self.startToken(device), Self.updateToken(device)].contains($0.token) }.map(\.connection))
            #expect(connections.count == 1, "phone-\(device) was pushed over connections \(connections.sorted())")
        }

        // Acknowledged by the instance about to die, and an /ended queued through another instance for it.
        try await world.call(0, "PUT", "/api/sessions/s7", #"{"title":"Acknowledged","busy":true}"#)
        try await world.call(1, "POST", "/api/push/live-activity/ended", #"{"deviceId":"phone-3"}"#)
        let killedAt = ContinuousClock.now
        if SharedDatabaseWorld.isVerbose { print("killing instance 0 at \(Date().timeIntervalSince1970)") }
        world.instances[0].stop(SIGKILL)
        if SharedDatabaseWorld.isVerbose { print("killed at \(Date().timeIntervalSince1970)") }
        try await world.call(1, "PUT", "/api/sessions/s8", #"{"title":"After the kill","busy":true}"#)
        let live = (0..<Self.devices).filter { $0 != 3 }
        let orphaned = live.filter { $0 % 3 == 0 }
        try await world.pushes.waitUntil("the killed instance's cards showing 9 sessions", within: .seconds(15)) { records in
            orphaned.allSatisfy { Self.shows(9, on: Self.updateToken($0), in: records) }
        }
        let takeover = ContinuousClock.now - killedAt
        print("three-instance: the killed instance's \(orphaned.count) cards pushed again \(takeover) after kill -9 (lease 1.5 s)")
        #expect(takeover < .seconds(5))
        // The others' routine updates are coalesced (at most one per device every few seconds), so they follow.
        let afterKill = try await world.pushes.waitUntil("every live card showing 9 sessions", within: .seconds(15)) { records in
            live.allSatisfy { Self.shows(9, on: Self.updateToken($0), in: records) }
        }

        // No duplicate start: one start per phone (phone-3's card ended; a later start there would be a new card).
        for device in live {
            let starts = afterKill.filter { $0.token == Self.startToken(device) && $0.event == "start" }.count
            #expect(starts == 1, "phone-\(device) got \(starts) starts")
        }
        // After the kill each card is again pushed by one surviving instance. The killed instance may have pushed
        // the write it acknowledged (s7) in the moment before it died: a count change goes at once at priority 10
        // (guard spare-budget), so its connection is set aside; a second owner among the survivors is what counts.
        let killedConnections = Set(beforeKill.filter { record in
            orphaned.contains { [Self.startToken($0), Self.updateToken($0)].contains(record.token) }
        }.map(\.connection))
        for device in live {
            let later = afterKill.dropFirst(beforeKill.count).filter {
                $0.token == Self.updateToken(device) && !killedConnections.contains($0.connection)
            }
            #expect(Set(later.map(\.connection)).count == 1, "phone-\(device) was pushed by several instances after the kill")
        }
        // The /ended queued for the killed owner was not lost.
        let history = try await world.call(2, "GET", "/api/push/live-activity/history?deviceId=phone-3")
        let records = try #require(history["history"] as? [[String: Any]])
        // (A session that appeared after it may since have started a new card there: that one is newer.)
        #expect(records.contains { $0["endReason"] as? String == "clientEnded" }, "phone-3's history: \(records)")
        let sessions = try await world.call(2, "GET", "/api/sessions")
        #expect((sessions["sessions"] as? [[String: Any]])?.compactMap { $0["sid"] as? String }.sorted() == (0...8).map { "s\($0)" })

        // SIGTERM hands the leases over at once: the last instance drives every card well before they would expire.
        world.instances[1].stop(SIGTERM)
        let stoppedAt = ContinuousClock.now
        // Its own three, and whichever of the killed instance's devices it took over.
        let handed = world.instances[1].printed.firstMatch(of: /handed (\d+) device leases over/).flatMap { Int($0.1) }
        #expect((handed ?? 0) >= 3, "the stopped instance printed: \(world.instances[1].printed)")
        try await world.call(2, "PUT", "/api/sessions/s9", #"{"title":"After the handover","busy":true}"#)
        let handedOver = live.filter { $0 % 3 == 1 }
        try await world.pushes.waitUntil("the stopped instance's cards showing 10 sessions", within: .seconds(15)) { records in
            handedOver.allSatisfy { Self.shows(10, on: Self.updateToken($0), in: records) }
        }
        let handover = ContinuousClock.now - stoppedAt
        print("three-instance: the stopped instance's \(handedOver.count) cards pushed again \(handover) after SIGTERM")
        let final = world.pushes.all
        for device in live {
            #expect(final.filter { $0.token == Self.startToken(device) && $0.event == "start" }.count == 1)
        }
    }
}
