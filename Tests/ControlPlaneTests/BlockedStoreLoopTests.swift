import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
@testable import StorePostgres
import Testing

/// A store that blocks (a database round trip, a lock held elsewhere, an unreachable server) stalls only
/// the requests that wait for it: `lfg serve`'s one HTTP event loop goes on answering everything else,
/// because every blocking store runs on a thread of its own (``BlockingCallExecutor``). Without that, the
/// store's calls ran on the loop's thread and one slow commit stopped every connection.
@Suite struct BlockedStoreLoopTests {
    static let token = "test-token-0123456789"
    /// How long a request the store does not hold may take: generous for a loaded machine, and far below
    /// the hold itself (the store is held until the test releases it).
    static let answerBound: Duration = .seconds(10)

    @Test("While a commit blocks its store's thread, the server still answers /healthz and GET /api/sessions, then the PUT once released")
    func loopAnswersWhileCommitIsHeld() async throws {
        let store = HeldCommitStore()
        defer { store.release() }
        try await Self.whileStoreIsHeld(store: store, hold: { try await store.heldCommits.next("the PUT's commit held") }, release: store.release)
    }

    @Test("PostgreSQL: while a commit waits on a table lock held elsewhere, the server still answers, then the PUT once it is released")
    func loopAnswersWhilePostgresWaitsOnALock() async throws {
        guard let url = PostgresTestDatabase.url else {
            if PostgresTestDatabase.isRequired { throw PostgresTestDatabase.Missing() }
            return
        }
        let schema = PostgresTestDatabase.freshSchema()
        let store = CommitSignallingStore(base: try PostgresTestDatabase.makeStore(schema: schema))
        let holder = try PostgresConnection(url: url, options: "-c search_path=\(schema)")
        // EXCLUSIVE: reads go on (the service's start loads the store), writes wait.
        try holder.execute("BEGIN; LOCK TABLE sessions IN EXCLUSIVE MODE")
        var isHeld = true
        defer { if isHeld { try? holder.execute("ROLLBACK") } }
        try await Self.whileStoreIsHeld(
            store: store,
            // The lock was taken before the PUT was sent: its commit waits on it from its first statement.
            hold: { try await store.commits.next("the PUT's commit started") },
            release: {
                try? holder.execute("ROLLBACK")
                isHeld = false
            })
    }

    /// Serves a service over `store` on one event loop (as `lfg serve`), sends a PUT whose commit `hold`
    /// says is blocked, checks other requests are answered meanwhile, then `release`s and checks the PUT.
    static func whileStoreIsHeld(
        store: any Store, hold: @escaping @Sendable () async throws -> Void, release: () -> Void
    ) async throws {
        let service = ControlPlaneService(
            .init(store: store, gateway: ScriptedPushGateway.answeringEverything(status: 200), decisionLog: InMemoryDecisionLog()))
        try await bounded("the service's start") { try await service.start() }
        let router = APIRouter(service: service, authenticator: Authenticator(token: token, loginCode: nil))
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 1), handler: router)
        let base = "http://127.0.0.1:\(try server.start())"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let put = Task {
                try await HTTPClient().send(request("PUT", base + "/api/sessions/s1", body: #"{"title": "Build"}"#))
            }
            // Released on every way out: the server's shutdown waits for the held PUT.
            do {
                try await hold()
                let health = try await bounded("GET /healthz while the store is held", within: answerBound) {
                    try await HTTPClient().send(request("GET", base + "/healthz"))
                }
                #expect(health.status == 200)
                let listing = try await bounded("GET /api/sessions while the store is held", within: answerBound) {
                    try await HTTPClient().send(request("GET", base + "/api/sessions"))
                }
                #expect(listing.status == 200)
                #expect(!listing.text.contains("s1"), "nothing is listed before its commit: \(listing.text)")
            } catch {
                release()
                throw error
            }
            release()
            let answer = try await bounded("the PUT once the store is released") { try await put.value }
            #expect(answer.status == 200, "\(answer.text)")
            let after = try await bounded("GET /api/sessions after the PUT") {
                try await HTTPClient().send(request("GET", base + "/api/sessions"))
            }
            #expect(after.text.contains("s1"))
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// Passes everything to `base`, telling `commits` each time a commit starts (on the caller's executor,
    /// just before the hop to the store's).
    struct CommitSignallingStore: Store {
        let base: any Store
        let commits = Inbox<Void>()

        func load() async throws(StoreError) -> StoreContents { try await base.load() }

        func commit(_ writes: [StoreWrite]) async throws(StoreError) {
            commits.yield(())
            try await base.commit(writes)
        }

        func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
            try await base.history(deviceId: deviceId, limit: limit)
        }
    }

    static func request(_ method: String, _ url: String, body: String = "") -> HTTPClientRequest {
        HTTPClientRequest(
            method: method, url: url,
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: Data(body.utf8))
    }
}
