import ControlPlane
import FleetCore
import Foundation
import StoreSQL
import Testing

@testable import StoreSQLite

/// A single-owner install keeps its data when accounts arrive (contract 8.4): a store file written by the
/// schema before accounts (``Schema005Fixture``) opens migrated, every row the owner's.
@Suite(.timeLimit(.minutes(1))) struct AccountMigrationTests {
    /// A fresh copy of the fixture as a SQLite file.
    static func fixtureFile() throws -> String {
        let path = try makeTemporaryDirectory() + "/lfg.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute(Schema005Fixture.dump)
        return path
    }

    @Test("A store written before accounts opens migrated, with every row kept as the owner's")
    func everyRowKept() async throws {
        let store = try SQLiteStore(path: try Self.fixtureFile(), now: 2)
        #expect(try await store.appliedMigrations() == SQLiteMigrations.all.map(\.name))
        let contents = try await store.load()
        #expect(contents.sessions.keys.sorted() == ["s1", "s2"])
        #expect(contents.sessions["s1"]?.prompt?.id == "q1")
        #expect(contents.hosts["mac"]?.ttlSeconds == 30)
        let phone = try #require(contents.devices["phone"])
        #expect(phone.profile.apnsToken == hexA)
        #expect(phone.tokens.map(\.hex) == [hex("c"), hex("b")])
        #expect(phone.card?.origin == .adopted)
        #expect(contents.questions.keys.map(\.rawValue) == ["q1"])
        #expect(
            contents.retiredChannels == [
                DeviceChannel(
                    id: channelID(1), env: .production, deviceId: "phone", createdAt: 1_796_166_050.5,
                    holdUntil: 1_796_194_850.5)
            ])
        #expect(contents.deviceCredentials.keys.map(\.rawValue) == ["3525df777350b0d7"])
        let history = try await store.history(deviceId: "phone", limit: 10)
        #expect(history.map(\.startedAt) == [1_796_166_200, 1_796_166_000, 1_796_166_292.7235455513])
        #expect(history[1].endReason == .clientEnded)
        #expect(try await store.accounts().isEmpty)
        // New history keeps counting after the kept ids.
        try await store.commit([.recordHistory(.started("pad", at: 5, origin: .adopted))])
        #expect(try await store.history(deviceId: nil, limit: 1).map(\.deviceId) == ["pad"])
    }

    @Test("Accounts added later leave the owner's rows, token and paired phone as they were")
    func accountsAddedLater() async throws {
        let store = try SQLiteStore(path: try Self.fixtureFile(), now: 2)
        let harness = try await AccountHarness(store: store)
        let owner = AccountHarness.ownerToken
        let before = await harness.call("GET", "/api/sessions", token: owner).text
        #expect(before.contains("\"s1\"") && before.contains("\"s2\""))
        let phone = await harness.call("GET", "/api/sessions", token: Schema005Fixture.pairedCredential)
        #expect(phone.status == 200)
        let ana = try await harness.createAccount("ana")
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"Ana's own s1"}"#, token: ana)
        #expect(await harness.call("GET", "/api/sessions", token: owner).text == before)
        #expect(await harness.call("GET", "/api/questions/q1", token: owner).status == 200)
        #expect(await harness.call("GET", "/api/questions/q1", token: ana).status == 404)
        #expect(await harness.call("GET", "/api/sessions", token: Schema005Fixture.pairedCredential).status == 200)
        // And after a restart on the same file, everything is where it was.
        let reopened = try await AccountHarness(store: try SQLiteStore(path: store.path, now: 3))
        #expect(await reopened.call("GET", "/api/sessions", token: owner).text == before)
        let anaSees = await reopened.call("GET", "/api/sessions", token: ana).json["sessions"] as? [[String: Any]]
        #expect(anaSees?.first?["title"] as? String == "Ana's own s1")
    }
}
