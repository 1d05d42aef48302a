import ControlPlane
import Foundation
import StorePostgres

/// The PostgreSQL server the tests use: `LFG_TEST_DATABASE_URL` (scripts/test.sh starts a throwaway
/// cluster and sets it, with `LFG_REQUIRE_POSTGRES=1`). Each store gets its own fresh schema, so tests
/// share the server but never each other's rows.
enum PostgresTestDatabase {
    static let url: String? = ProcessInfo.processInfo.environment["LFG_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let isRequired = ProcessInfo.processInfo.environment["LFG_REQUIRE_POSTGRES"] == "1"

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "LFG_TEST_DATABASE_URL is not set: run the tests through scripts/test.sh, which starts a throwaway PostgreSQL"
        }
    }

    /// A schema name no other test uses.
    static func freshSchema() -> String {
        "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// A migrated store in a fresh schema.
    static func makeStore(schema: String = freshSchema(), now: Double = 1) throws -> PostgresStore {
        guard let url else { throw Missing() }
        return try PostgresStore(url: url, schema: schema, now: now)
    }
}
