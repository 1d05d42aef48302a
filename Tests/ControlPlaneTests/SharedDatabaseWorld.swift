import APNsMock
import AsyncTesting
import ControlPlane
import Foundation
import Synchronization
import Testing

/// Several `lfg serve` processes on one PostgreSQL schema, pushing to one APNs stand-in.
final class SharedDatabaseWorld: Sendable {
    let pushes: PushRecorder
    let instances: [ServeProcess]
    let homes: [String]
    /// The token of each account made before the instances started, by name.
    let accountTokens: [String: String]

    /// - Parameter accounts: accounts made in the database before any instance starts.
    init(instances count: Int, leaseTTLMilliseconds: Int = 1500, accounts: [String] = []) async throws {
        let url = try #require(PostgresTestDatabase.url)
        let schema = PostgresTestDatabase.freshSchema()
        // The schema is migrated once up front, so the instances start against a ready database.
        let store = try PostgresTestDatabase.makeStore(schema: schema)
        var tokens: [String: String] = [:]
        for name in accounts {
            let (token, record) = AccountRecord.make(AccountID(name), now: 1)
            #expect(try await store.addAccount(record))
            tokens[name] = token
        }
        accountTokens = tokens
        pushes = try PushRecorder()
        var instances: [ServeProcess] = []
        var homes: [String] = []
        for _ in 0..<count {
            let home = try makeTemporaryDirectory()
            var environment = try ServeProcessTests.environment(home: home, pushPort: 1, apnsURL: pushes.server.baseURL)
            environment["LFG_DATABASE_URL"] = url
            environment["LFG_DATABASE_SCHEMA"] = schema
            environment["LFG_LEASE_TTL_MS"] = "\(leaseTTLMilliseconds)"
            environment["LFG_TICK_MS"] = "100"
            instances.append(try await ServeProcess.start(port: freePort(), environment: environment))
            homes.append(home)
        }
        self.instances = instances
        self.homes = homes
    }

    static let isVerbose = ProcessInfo.processInfo.environment["LFG_TEST_VERBOSE"] == "1"

    func stopAll() {
        for (index, instance) in instances.enumerated() where Self.isVerbose {
            print("instance \(index) printed:\n\(instance.printed.split(separator: "\n").filter { $0.hasPrefix("lfg serve") }.joined(separator: "\n"))")
        }
        if Self.isVerbose { print(pushes.all.map { "\($0.connection) \($0.token.suffix(4)) \($0.event ?? "?") \($0.working ?? -1) \($0.receivedAt)" }) }
        for instance in instances where instance.process.isRunning { instance.stop(SIGTERM) }
        pushes.server.stop()
    }

    /// Calls `instance` (as the owner unless `token` says) and requires a 2xx answer (an acknowledged write).
    @discardableResult
    func call(
        _ instance: Int, _ method: String, _ path: String, _ body: String = "", token: String = ServeProcessTests.token
    ) async throws -> [String: Any] {
        let (status, object) = try await instances[instance].call(method, path, body, token: token)
        guard (200..<300).contains(status) else {
            throw ServeProcessError(message: "\(method) \(path) on instance \(instance) answered \(status): \(object)")
        }
        return object
    }
}

/// Every push the stand-in received, with a wake-up per arrival, so a test waits for a condition over them.
final class PushRecorder: Sendable {
    let server: APNsMockServer
    private let log: Log
    private let arrived: Inbox<Void>

    final class Log: Sendable {
        let records = Mutex<[MockRecord]>([])
    }

    init() throws {
        let log = Log()
        let arrived = Inbox<Void>()
        self.log = log
        self.arrived = arrived
        server = try APNsMockServer(onRecord: { record in
            log.records.withLock { $0.append(record) }
            arrived.yield(())
        })
    }

    var all: [MockRecord] { log.records.withLock { $0 } }

    /// Waits (bounded) until `condition` holds over the pushes received so far; returns them.
    @discardableResult
    func waitUntil(
        _ what: String, within limit: Duration = .seconds(20), _ condition: ([MockRecord]) -> Bool
    ) async throws -> [MockRecord] {
        let deadline = ContinuousClock.now + limit
        while true {
            let current = all
            if condition(current) { return current }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, try await arrived.next(what, within: remaining) != nil else {
                throw ServeProcessError(message: "gave up waiting for \(what)")
            }
        }
    }
}

extension MockRecord {
    var event: String? { aps?["event"] as? String }
    var working: Int? { (aps?["content-state"] as? [String: Any])?["working"] as? Int }
    private var aps: [String: Any]? { (bodyJSON as? [String: Any])?["aps"] as? [String: Any] }
}
