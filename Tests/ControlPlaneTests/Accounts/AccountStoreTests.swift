import ControlPlane
import FleetCore
import Foundation
import StoreSQL
import StoreSQLite
import Testing

/// Accounts in the store layer (contract 8.4), on every store: each account's handle reaches its own rows only.
@Suite struct AccountStoreTests {
    static let report = SessionReport(title: "Build", host: "mac", busy: true)
    static let question = Question(
        id: QuestionID(rawValue: "q1"), sid: "s1", kind: .confirm, text: "Run rm?", options: ["Allow", "Deny"],
        createdAt: 10.25, expiresAt: 610.5)
    static let credential = DeviceCredentialRecord(
        id: DeviceCredentialID("0123456789abcdef"), secretHash: hexA, name: "Ana's iPhone", deviceId: "phone",
        createdAt: 10)

    /// The same ids, written by two accounts with different content.
    static func writes(_ title: String) -> [StoreWrite] {
        var report = Self.report
        report.title = title
        var question = Self.question
        question.text = title
        var credential = Self.credential
        credential.name = title
        return [
            .putSession("s1", report), .putHost("mac", HostHeartbeat(lastSeen: title == "ana" ? 1 : 2, ttlSeconds: 30)),
            .putDevice("phone", StoreSuiteTests.record),
            .putSince(["s1": SinceEntry(state: .working, since: title == "ana" ? 1 : 2)]),
            .putQuestion(question), .putDeviceCredential(credential),
            .putRetiredChannels([
                DeviceChannel(id: channelID(title == "ana" ? 1 : 2), env: .sandbox, deviceId: "phone", createdAt: 1)
            ]),
            .recordHistory(.started("phone", at: title == "ana" ? 1 : 2, origin: .pushToStart)),
        ]
    }

    @Test(
        "Two accounts keep the same ids apart: each loads, changes and deletes only its own rows",
        arguments: StoreKind.available)
    func sameIdsApart(kind: StoreKind) async throws {
        let store = try kind.make()
        let ana = store.scoped(to: "ana")
        let bob = store.scoped(to: "bob")
        try await ana.commit(Self.writes("ana"))
        try await bob.commit(Self.writes("bob"))
        #expect(try await ana.load().sessions["s1"]?.title == "ana")
        #expect(try await bob.load().sessions["s1"]?.title == "bob")
        #expect(try await ana.load().questions[Self.question.id]?.text == "ana")
        #expect(try await bob.load().deviceCredentials[Self.credential.id]?.name == "bob")
        #expect(try await ana.load().retiredChannels.map(\.id) == [channelID(1)])
        #expect(try await ana.history(deviceId: "phone", limit: 10).map(\.startedAt) == [1])
        // Bob deleting and replacing everything leaves Ana's rows whole.
        try await bob.commit([
            .deleteSession("s1"), .deleteDevice("phone"), .deleteSince(["s1"]), .deleteQuestions([Self.question.id]),
            .putRetiredChannels([]), .recordHistory(.ended("phone", at: 9, reason: .serverEnded)),
        ])
        let anaContents = try await ana.load()
        #expect(anaContents.sessions.keys.sorted() == ["s1"])
        #expect(anaContents.devices["phone"] == StoreSuiteTests.record)
        #expect(anaContents.since["s1"]?.since == 1)
        #expect(anaContents.questions.count == 1)
        #expect(anaContents.retiredChannels.count == 1)
        #expect(try await ana.history(deviceId: nil, limit: 10).first?.endedAt == nil)
        #expect(try await bob.load().sessions.isEmpty)
        #expect(try await bob.history(deviceId: nil, limit: 10).first?.endReason == .serverEnded)
    }

    @Test(
        "The store used as a plain Store is the owner's, and a new account starts empty", arguments: StoreKind.available
    )
    func ownerIsThePlainStore(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit(Self.writes("owner"))
        #expect(try await store.scoped(to: .owner).load() == store.load())
        #expect(try await store.scoped(to: "ana").load() == StoreContents())
        #expect(try await store.scoped(to: "ana").history(deviceId: nil, limit: 10).isEmpty)
    }

    @Test("Accounts round-trip, and a revocation replaces the record by name", arguments: StoreKind.available)
    func accountRecords(kind: StoreKind) async throws {
        let store = try kind.make()
        #expect(try await store.accounts().isEmpty)
        let (token, ana) = AccountRecord.make("ana", now: 5)
        let (_, bob) = AccountRecord.make("bob", now: 6)
        try await store.putAccount(bob)
        try await store.putAccount(ana)
        var revoked = ana
        revoked.revokedAt = 7
        try await store.putAccount(revoked)
        #expect(try await store.accounts() == [revoked, bob])
        #expect(ana.accepts(token))
        #expect(!revoked.accepts(token))
        #expect(!bob.accepts(token))
        #expect(!token.contains(ana.secretHash))
    }
}
