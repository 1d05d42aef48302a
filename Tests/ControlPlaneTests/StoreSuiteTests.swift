import ControlPlane
import FleetCore
import Foundation
import StorePostgres
import StoreSQL
import StoreSQLite
import Testing

/// A unique temporary folder per test.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "lfg-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

enum StoreKind: String, CaseIterable, Sendable {
    case memory, sqlite, postgres

    func make() throws -> any AccountStore {
        switch self {
        case .memory: return InMemoryStore()
        case .sqlite: return try SQLiteStore(path: try makeTemporaryDirectory() + "/lfg.sqlite", now: 1)
        case .postgres: return try PostgresTestDatabase.makeStore()
        }
    }

    /// Every store this run can test: PostgreSQL when a test database is configured (scripts/test.sh starts
    /// one; ``PostgresTestDatabase`` fails the run when it is required and missing).
    static var available: [StoreKind] { PostgresTestDatabase.url == nil ? [.memory, .sqlite] : allCases }
}

/// One suite, run against every store: they must behave alike.
@Suite struct StoreSuiteTests {
    static let record = DeviceRecord(
        profile: DeviceProfile(env: .sandbox, platform: "ios", apnsToken: hexA, hiddenDirs: ["/x"]),
        tokens: [
            LiveActivityToken(kind: .update, env: .sandbox, hex: hexB, registeredAt: 20),
            LiveActivityToken(kind: .pushToStart, env: .production, hex: hexA, registeredAt: 10),
        ],
        card: FleetCard(
            contentState: ContentState(working: 1, rows: [Row(sid: "s1", title: "Build", state: .working, since: 5)], updatedAt: 9),
            startedAt: 5, origin: .pushToStart),
        veto: ["s1", "s2"], isVetoLogged: true)

    @Test("Everything written comes back on load", arguments: StoreKind.available)
    func roundTrip(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit([
            .putSession("s1", SessionReport(title: "Build", host: "mac", busy: true, prompt: Prompt(kind: .plan, text: "ok?"))),
            .putSession("s2", SessionReport(title: "gone")),
            .deleteSession("s2"),
            .putHost("mac", HostHeartbeat(lastSeen: 100, ttlSeconds: 30)),
            .putDevice("phone", Self.record),
            .putDevice("bare", DeviceRecord()),
            .putSince(["s1": SinceEntry(state: .working, since: 5), "s3": SinceEntry(state: .needsInput, since: 6)]),
            .deleteSince(["s3"]),
        ])
        let contents = try await store.load()
        #expect(contents.sessions == ["s1": SessionReport(title: "Build", host: "mac", busy: true, prompt: Prompt(kind: .plan, text: "ok?"))])
        #expect(contents.hosts == ["mac": HostHeartbeat(lastSeen: 100, ttlSeconds: 30)])
        #expect(contents.devices == ["phone": Self.record, "bare": DeviceRecord()])
        #expect(contents.since == ["s1": SinceEntry(state: .working, since: 5)])
    }

    @Test("Questions, retired channels and deleted devices round-trip alike", arguments: StoreKind.available)
    func questionsAndChannels(kind: StoreKind) async throws {
        let store = try kind.make()
        let asked = Question(
            id: QuestionID(rawValue: "q1"), sid: "s1", kind: .confirm, text: "Run rm?", options: ["Allow", "Deny"],
            createdAt: 10.25, expiresAt: 610.5)
        var answered = asked
        answered.id = QuestionID(rawValue: "q2")
        answered.state = .answered
        answered.answer = "Allow"
        let held = DeviceChannel(id: channelID(1), env: .production, deviceId: "phone", createdAt: 3.5, holdUntil: 28_803.5)
        let plain = DeviceChannel(id: channelID(2), env: .sandbox, deviceId: "pad", createdAt: 4)
        try await store.commit([
            .putQuestion(asked), .putQuestion(answered), .putQuestion(answered), .deleteQuestions([QuestionID(rawValue: "q1")]),
            .putRetiredChannels([held, plain]), .putDevice("phone", Self.record), .putDevice("pad", DeviceRecord()),
            .deleteDevice("pad"),
        ])
        var contents = try await store.load()
        #expect(contents.questions == [answered.id: answered])
        #expect(contents.retiredChannels == [held, plain])
        #expect(contents.devices == ["phone": Self.record])
        try await store.commit([.putRetiredChannels([plain])])
        contents = try await store.load()
        #expect(contents.retiredChannels == [plain])
    }

    @Test("A device write replaces its tokens, keeping their order", arguments: StoreKind.available)
    func tokensReplaced(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit([.putDevice("phone", Self.record)])
        var changed = Self.record
        changed.tokens.removeFirst()
        changed.card = nil
        changed.veto = nil
        try await store.commit([.putDevice("phone", changed)])
        #expect(try await store.load().devices["phone"] == changed)
    }

    @Test("The card history opens on start and closes the device's open card on adoption and end", arguments: StoreKind.available)
    func history(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit([
            .recordHistory(.started("phone", at: 1, origin: .pushToStart)),
            .recordHistory(.started("pad", at: 2, origin: .adopted)),
            .recordHistory(.adopted("phone", at: 3)),
            .recordHistory(.adopted("phone", at: 4)),
            .recordHistory(.ended("phone", at: 5, reason: .clientEnded)),
            .recordHistory(.ended("phone", at: 6, reason: .serverEnded)),
            .recordHistory(.started("phone", at: 7, origin: .adopted)),
        ])
        let all = try await store.history(deviceId: nil, limit: 10)
        #expect(all == [
            CardHistoryRecord(deviceId: "phone", startedAt: 7, origin: .adopted),
            CardHistoryRecord(deviceId: "pad", startedAt: 2, origin: .adopted),
            CardHistoryRecord(deviceId: "phone", startedAt: 1, origin: .pushToStart, adoptedAt: 3, endedAt: 5, endReason: .clientEnded),
        ])
        #expect(try await store.history(deviceId: "phone", limit: 1).map(\.startedAt) == [7])
    }

    @Test("A device credential comes back as written, and a revocation replaces it by id", arguments: StoreKind.allCases)
    func deviceCredentials(kind: StoreKind) async throws {
        let store = try kind.make()
        let phone = DeviceCredentialRecord(
            id: DeviceCredentialID("0123456789abcdef"), secretHash: hexA, name: "Ana's iPhone", deviceId: "phone", createdAt: 10)
        let pad = DeviceCredentialRecord(
            id: DeviceCredentialID("fedcba9876543210"), secretHash: hexB, name: "iPad", deviceId: nil, createdAt: 11)
        var revoked = phone
        revoked.revokedAt = 12
        try await store.commit([.putDeviceCredential(phone), .putDeviceCredential(pad)])
        try await store.commit([.putDeviceCredential(revoked)])
        #expect(try await store.load().deviceCredentials == [phone.id: revoked, pad.id: pad])
    }

    /// Sessions whose text needs quoting in every form a store writes it (JSON, a PostgreSQL array literal).
    static let awkwardSessions: [(SessionID, SessionReport)] = [
        ("s1", SessionReport(title: #"say "hi", {braces} \ back\slash"#, host: "mac", busy: true)),
        ("s2", SessionReport(title: "é 🚀 NULL, null, \\N", cwd: "/src/a b", prompt: Prompt(kind: .plan, text: "ok?"))),
        ("s 3", SessionReport(title: "", step: "Edit")),
    ]

    @Test("Sessions put together in one commit come back as written; one put twice keeps its last report",
          arguments: StoreKind.available)
    func sessionsPutTogether(kind: StoreKind) async throws {
        let store = try kind.make()
        let sessions = Self.awkwardSessions
        try await store.commit(
            sessions.map { StoreWrite.putSession($0.0, $0.1) } + [
                .putHost("mac", HostHeartbeat(lastSeen: 100, ttlSeconds: 30)), .putSession("s1", SessionReport(title: "last")),
            ])
        var expected = Dictionary(uniqueKeysWithValues: sessions)
        expected["s1"] = SessionReport(title: "last")
        #expect(try await store.load().sessions == expected)
        // An update of rows already there.
        try await store.commit(sessions.map { StoreWrite.putSession($0.0, $0.1) })
        #expect(try await store.load().sessions == Dictionary(uniqueKeysWithValues: sessions))
    }

    @Test("PostgreSQL: a commit putting many sessions costs a few round trips, not one per session")
    func postgresSessionsInOneStatement() async throws {
        let store = try StoreKind.postgres.make()
        let sessions = (0..<100).map { StoreWrite.putSession(SessionID("s\($0)"), SessionReport(title: "t\($0)")) }
        try await store.commit([sessions[0]])  // statements prepared
        let before = PostgresRoundTrips.total
        try await store.commit(sessions)
        #expect(PostgresRoundTrips.total - before < 20)
        #expect(try await store.load().sessions.count == 100)
    }

    @Test("Empty text is stored as empty text, not NULL (a NOT NULL column takes it)", arguments: StoreKind.allCases)
    func emptyTextStaysText(kind: StoreKind) async throws {
        let store = try kind.make()
        let unnamed = DeviceCredentialRecord(
            id: DeviceCredentialID("0123456789abcdef"), secretHash: hexA, name: "", deviceId: "", createdAt: 10)
        try await store.commit([.putDeviceCredential(unnamed)])
        #expect(try await store.load().deviceCredentials == [unnamed.id: unnamed])
    }
}

@Suite struct SQLiteStoreTests {
    @Test("Migrations are named, applied once, recorded, and the data survives reopening")
    func migrationsAndReopen() async throws {
        let path = try makeTemporaryDirectory() + "/lfg.sqlite"
        let first = try SQLiteStore(path: path, now: 1)
        #expect(try await first.appliedMigrations() == ["001_initial", "002_questions", "003_broadcast_channels", "004_retired_channel_hold", "005_device_credentials", "006_accounts"])
        try await first.commit([.putDevice("phone", StoreSuiteTests.record)])
        let second = try SQLiteStore(path: path, now: 2)
        #expect(try await second.appliedMigrations() == ["001_initial", "002_questions", "003_broadcast_channels", "004_retired_channel_hold", "005_device_credentials", "006_accounts"])
        #expect(try await second.load().devices["phone"] == StoreSuiteTests.record)
    }

    @Test("An exclusive store (lfg serve's) commits, and its data survives closing and reopening")
    func exclusiveStoreReopens() async throws {
        let path = try makeTemporaryDirectory() + "/lfg.sqlite"
        do {
            let store = try SQLiteStore(path: path, now: 1, isExclusive: true)
            try await store.commit([.putDevice("phone", StoreSuiteTests.record)])
            #expect(try await store.load().devices["phone"] == StoreSuiteTests.record)
        }
        let reopened = try SQLiteStore(path: path, now: 2, isExclusive: true)
        #expect(try await reopened.load().devices["phone"] == StoreSuiteTests.record)
    }

    @Test("Text with quotes, NULs and non-ASCII binds by explicit byte count")
    func awkwardText() async throws {
        let store = try SQLiteStore(path: try makeTemporaryDirectory() + "/lfg.sqlite", now: 1)
        let title = "it's \"ok\" \u{0}after-nul é 🚀"
        try await store.commit([.putSession("s'1", SessionReport(title: title))])
        #expect(try await store.load().sessions["s'1"]?.title == title)
    }

    @Test("An unopenable path is an error naming the operation and what to do")
    func unopenable() {
        #expect(throws: StoreError.self) { try SQLiteStore(path: "/nonexistent-dir/x/lfg.sqlite") }
    }
}
