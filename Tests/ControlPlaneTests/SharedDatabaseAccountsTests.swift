import APNsMock
import Foundation
import Testing

/// Contract 8.4: accounts on one PostgreSQL database shared by several `lfg serve` instances. Two accounts
/// whose phones have the same device ids: every instance leases devices of both, each card is pushed by
/// one instance, neither account's sessions reach the other's phones, and a kill -9 loses nothing.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct SharedDatabaseAccountsTests {
    static let devices = 6
    static let accounts = ["alice", "bob"]

    /// A token of its own per account and phone (the phones' device ids are the same in both accounts).
    static func startToken(_ account: Int, _ device: Int) -> String { String(format: "%064x", 0x10000 + account * 0x100 + device) }
    static func updateToken(_ account: Int, _ device: Int) -> String { String(format: "%064x", 0x20000 + account * 0x100 + device) }
    static func body(_ device: Int, _ token: String) -> String {
        #"{"token":"\#(token)","env":"sandbox","deviceId":"phone-\#(device)"}"#
    }

    @Test(
        "Two accounts with the same device ids on three instances: each card pushed by one instance, no cross-account push, a kill -9 taken over with no duplicate start and nothing lost, a revocation heard by all",
        .timeLimit(.minutes(3)))
    func twoAccountsOnThreeInstances() async throws {
        // Alice's account exists before the instances start; Bob's is made on instance 0 while they run.
        let world = try await SharedDatabaseWorld(instances: 3, accounts: ["alice"])
        defer { world.stopAll() }
        let made = try await world.call(0, "POST", "/api/accounts", #"{"name":"bob"}"#)
        let bob = try #require(made["token"] as? String)
        for instance in 1...2 { try await world.instances[instance].waitUntilPrinted("serving account bob") }
        let tokens = [try #require(world.accountTokens["alice"]), bob]

        // Each phone registers with a different instance; both accounts' phone-N with the same one.
        for account in 0..<2 {
            for device in 0..<Self.devices {
                try await world.call(
                    device % 3, "POST", "/api/push/live-activity/start-token",
                    Self.body(device, Self.startToken(account, device)), token: tokens[account])
            }
        }
        try await world.call(0, "PUT", "/api/sessions/a0", #"{"title":"Alice build","busy":true}"#, token: tokens[0])
        try await world.call(1, "PUT", "/api/sessions/b0", #"{"title":"Bob build","busy":true}"#, token: tokens[1])
        try await world.pushes.waitUntil("a start on every phone of both accounts") { records in
            (0..<2).allSatisfy { account in
                (0..<Self.devices).allSatisfy { device in
                    records.contains { $0.token == Self.startToken(account, device) && $0.event == "start" }
                }
            }
        }
        for account in 0..<2 {
            for device in 0..<Self.devices {
                try await world.call(
                    (device + 1) % 3, "POST", "/api/push/live-activity/update-token",
                    Self.body(device, Self.updateToken(account, device)), token: tokens[account])
            }
        }
        // Reports spread over the instances: Alice ends with 4 sessions at work, Bob with 3.
        for session in 1...3 {
            try await world.call(session % 3, "PUT", "/api/sessions/a\(session)", #"{"title":"Alice \#(session)","busy":true}"#, token: tokens[0])
        }
        for session in 1...2 {
            try await world.call((session + 1) % 3, "PUT", "/api/sessions/b\(session)", #"{"title":"Bob \#(session)","busy":true}"#, token: tokens[1])
        }
        let working = [4, 3]
        try await world.pushes.waitUntil("Alice's cards showing 4 at work, Bob's 3") { records in
            (0..<2).allSatisfy { account in
                (0..<Self.devices).allSatisfy {
                    SharedDatabaseTests.shows(working[account], on: Self.updateToken(account, $0), in: records)
                }
            }
        }
        let beforeKill = world.pushes.all
        try Self.expectOneInstancePerCard(beforeKill, "before the kill")
        Self.expectNoCrossAccountPush(beforeKill)

        // Acknowledged by the instance about to die, and an /ended for Bob's phone-3 queued through another.
        try await world.call(0, "PUT", "/api/sessions/a9", #"{"title":"Alice acknowledged","busy":true}"#, token: tokens[0])
        try await world.call(1, "POST", "/api/push/live-activity/ended", #"{"deviceId":"phone-3"}"#, token: tokens[1])
        let killedAt = ContinuousClock.now
        world.instances[0].stop(SIGKILL)
        try await world.call(1, "PUT", "/api/sessions/b9", #"{"title":"Bob after the kill","busy":true}"#, token: tokens[1])
        let after = [5, 4]
        let orphaned = (0..<Self.devices).filter { $0 % 3 == 0 }
        try await world.pushes.waitUntil("the killed instance's cards showing the acknowledged writes", within: .seconds(15)) { records in
            (0..<2).allSatisfy { account in
                orphaned.filter { account == 0 || $0 != 3 }.allSatisfy {
                    SharedDatabaseTests.shows(after[account], on: Self.updateToken(account, $0), in: records)
                }
            }
        }
        let takeover = ContinuousClock.now - killedAt
        print("two accounts on three instances: the killed instance's cards pushed again \(takeover) after kill -9 (lease 1.5 s)")
        #expect(takeover < .seconds(5))
        let live = { (account: Int) in (0..<Self.devices).filter { account == 0 || $0 != 3 } }
        let afterKill = try await world.pushes.waitUntil("every live card showing the acknowledged writes", within: .seconds(15)) { records in
            (0..<2).allSatisfy { account in
                live(account).allSatisfy { SharedDatabaseTests.shows(after[account], on: Self.updateToken(account, $0), in: records) }
            }
        }
        // No duplicate start, and after the kill each card is again pushed by one instance.
        for account in 0..<2 {
            for device in live(account) {
                let starts = afterKill.filter { $0.token == Self.startToken(account, device) && $0.event == "start" }.count
                #expect(starts == 1, "\(Self.accounts[account])'s phone-\(device) got \(starts) starts")
            }
        }
        // The killed instance may have pushed the write it acknowledged (a9) in the moment before it died: a count
        // change goes at once at priority 10 (guard spare-budget), so its connection is set aside; a second owner
        // among the survivors is what counts.
        let killedConnections = Set(beforeKill.filter { record in
            (0..<2).contains { account in
                orphaned.contains { [Self.startToken(account, $0), Self.updateToken(account, $0)].contains(record.token) }
            }
        }.map(\.connection))
        try Self.expectOneInstancePerCard(
            afterKill.dropFirst(beforeKill.count).filter { !killedConnections.contains($0.connection) }, "after the kill")
        Self.expectNoCrossAccountPush(afterKill)
        // Bob's /ended, queued for the killed instance, was not lost; Alice's phone-3 (same id) kept its card.
        let bobHistory = try await world.call(2, "GET", "/api/push/live-activity/history?deviceId=phone-3", token: tokens[1])
        let bobRecords = try #require(bobHistory["history"] as? [[String: Any]])
        #expect(bobRecords.contains { $0["endReason"] as? String == "clientEnded" }, "Bob's phone-3 history: \(bobRecords)")
        let aliceHistory = try await world.call(2, "GET", "/api/push/live-activity/history?deviceId=phone-3", token: tokens[0])
        let aliceRecords = try #require(aliceHistory["history"] as? [[String: Any]])
        #expect(!aliceRecords.contains { $0["endReason"] as? String == "clientEnded" }, "Alice's phone-3 history: \(aliceRecords)")
        // Each account lists its own sessions only, the dead instance's acknowledged write included.
        for (account, expected) in [(0, ["a0", "a1", "a2", "a3", "a9"]), (1, ["b0", "b1", "b2", "b9"])] {
            let listed = try await world.call(2, "GET", "/api/sessions", token: tokens[account])
            #expect((listed["sessions"] as? [[String: Any]])?.compactMap { $0["sid"] as? String }.sorted() == expected)
        }

        // Revoked through one instance, refused by every other.
        try await world.call(2, "DELETE", "/api/accounts/bob")
        try await world.instances[1].waitUntilPrinted("stopped serving account bob")
        let (status, _) = try await world.instances[1].call("GET", "/api/sessions", token: bob)
        #expect(status == 401)
    }

    /// Every card's pushes (start and update tokens alike) left over one APNs connection: one instance.
    static func expectOneInstancePerCard(_ records: [MockRecord], _ when: String) throws {
        for account in 0..<2 {
            for device in 0..<Self.devices {
                let tokens = [Self.startToken(account, device), Self.updateToken(account, device)]
                let connections = Set(records.filter { tokens.contains($0.token) }.map(\.connection))
                #expect(connections.count <= 1, "\(when): \(Self.accounts[account])'s phone-\(device) pushed over \(connections.sorted())")
            }
        }
    }

    /// No push to one account's phone shows the other account's sessions (counts and words).
    static func expectNoCrossAccountPush(_ records: [MockRecord]) {
        for account in 0..<2 {
            let tokens = Set((0..<Self.devices).flatMap { [Self.startToken(account, $0), Self.updateToken(account, $0)] })
            let other = account == 0 ? "Bob" : "Alice"
            for record in records where tokens.contains(record.token) {
                #expect(!String(decoding: record.body, as: UTF8.self).contains(other), "\(Self.accounts[account]) was pushed \(other)'s words")
            }
        }
    }
}
