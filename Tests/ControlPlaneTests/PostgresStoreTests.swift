import ControlPlane
import FleetCore
import StorePostgres
import StoreSQL
import StoreSQLite
import Testing

@Suite struct PostgresAvailabilityTests {
    @Test("When the run requires PostgreSQL (scripts/test.sh started one), it is configured and reachable")
    func reachableWhenRequired() throws {
        guard PostgresTestDatabase.isRequired else {
            // Not silent: a run without a test database says so on every run.
            print("note: LFG_TEST_DATABASE_URL unset: the PostgreSQL store is not tested (scripts/test.sh tests it)")
            return
        }
        let url = try #require(PostgresTestDatabase.url, "LFG_REQUIRE_POSTGRES=1 but LFG_TEST_DATABASE_URL is not set")
        _ = try PostgresStore(url: url, schema: PostgresTestDatabase.freshSchema())
    }
}

@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct PostgresStoreTests {
    @Test("Migrations are named, applied once, recorded, and the data survives reconnecting")
    func migrationsAndReopen() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let first = try PostgresTestDatabase.makeStore(schema: schema, now: 1)
        #expect(try await first.appliedMigrations() == (PostgresMigrations.all + PostgresMigrations.coordination).map(\.name).sorted())
        try await first.commit([.putDevice("phone", StoreSuiteTests.record)])
        let second = try PostgresTestDatabase.makeStore(schema: schema, now: 2)
        #expect(try await second.appliedMigrations() == (PostgresMigrations.all + PostgresMigrations.coordination).map(\.name).sorted())
        #expect(try await second.load().devices["phone"] == StoreSuiteTests.record)
    }

    @Test("PostgreSQL's migrations carry the same names, in the same order, as SQLite's")
    func sameMigrationNames() {
        #expect(PostgresMigrations.all.map(\.name) == SQLiteMigrations.all.map(\.name))
    }

    @Test("Instances starting at once on one database apply each migration exactly once")
    func concurrentMigrations() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<4 { group.addTask { try PostgresTestDatabase.makeStore(schema: schema) } }
            return try await group.reduce(into: [PostgresStore]()) { $0.append($1) }
        }
        for store in stores { #expect(try await store.appliedMigrations() == (PostgresMigrations.all + PostgresMigrations.coordination).map(\.name).sorted()) }
    }

    @Test("Quotes and non-ASCII round-trip; a NUL in a key is refused and nothing of that commit is written")
    func awkwardText() async throws {
        let store = try PostgresTestDatabase.makeStore()
        let title = "it's \"ok\" \u{0}after-nul é 🚀"
        try await store.commit([.putSession("s'1", SessionReport(title: title))])
        #expect(try await store.load().sessions["s'1"]?.title == title)
        await #expect(throws: StoreError.self) {
            try await store.commit([.putSession("kept?", SessionReport(title: "a")), .putSession("bad\u{0}", SessionReport(title: "b"))])
        }
        #expect(try await store.load().sessions.keys.sorted() == ["s'1"])
    }

    @Test("A failed commit applies none of its writes, and the store keeps working after it")
    func failedCommitIsAtomic() async throws {
        let store = try PostgresTestDatabase.makeStore()
        await #expect(throws: StoreError.self) {
            // The second token duplicates the first's primary key (device, kind, hex).
            var record = StoreSuiteTests.record
            record.tokens.append(record.tokens[0])
            try await store.commit([.putSession("s1", SessionReport(title: "a")), .putDevice("phone", record)])
        }
        try await store.commit([.putSession("s2", SessionReport(title: "b"))])
        let contents = try await store.load()
        #expect(contents.sessions.keys.sorted() == ["s2"])
        #expect(contents.devices.isEmpty)
    }

    @Test("An unreachable server is an error that names what to check and never shows the password")
    func unreachable() throws {
        let error = #expect(throws: StoreError.self) {
            try PostgresStore(url: "postgresql://lfg:hunter2@127.0.0.1:1/nowhere?connect_timeout=2")
        }
        #expect(error?.description.contains("LFG_DATABASE_URL") == true)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test("A schema name that is not a plain identifier is refused before connecting")
    func badSchema() {
        #expect(throws: StoreError.self) { try PostgresStore(url: "postgresql:///x", schema: "x; DROP TABLE sessions") }
    }
}
