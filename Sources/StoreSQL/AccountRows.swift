import ControlPlane

/// One account's view of a database: every statement it runs gets the account bound to `?1` (the
/// statement's own values follow from `?2`). ``StoreTables`` reaches the per-account tables only
/// through it, and every statement names `account_id = ?1`.
struct AccountRows<Database: SQLDatabase> {
    let database: Database
    let account: AccountID

    func run(
        _ sql: String, _ values: [SQLValue] = [], rows: (any SQLRow) throws(StoreError) -> Void = { _ in }
    ) throws(StoreError) {
        try database.run(sql, [.text(account.rawValue)] + values, rows: rows)
    }
}

/// The accounts themselves (not any one account's rows).
public enum AccountTable {
    /// Every account, revoked ones included.
    public static func load(_ database: some SQLDatabase) throws(StoreError) -> [AccountRecord] {
        var records: [AccountRecord] = []
        try database.run("SELECT name, token_id, secret_hash, created_at, revoked_at FROM accounts ORDER BY name", []) {
            row in
            records.append(
                AccountRecord(
                    id: AccountID(row.text(0)), tokenId: row.text(1), secretHash: row.text(2), createdAt: row.real(3),
                    revokedAt: row.optionalReal(4)))
        }
        return records
    }

    /// Inserts or replaces `record`, by name.
    public static func put(_ record: AccountRecord, _ database: some SQLDatabase) throws(StoreError) {
        try database.run(
            insert + "ON CONFLICT (name) DO UPDATE SET token_id = excluded.token_id, secret_hash = excluded.secret_hash, "
                + "created_at = excluded.created_at, revoked_at = excluded.revoked_at",
            values(record))
    }

    /// Inserts `record` unless an account of its name exists; true when inserted.
    public static func add(_ record: AccountRecord, _ database: some SQLDatabase) throws(StoreError) -> Bool {
        var isInserted = false
        try database.run(insert + "ON CONFLICT (name) DO NOTHING RETURNING name", values(record)) { _ in isInserted = true }
        return isInserted
    }

    private static let insert =
        "INSERT INTO accounts (name, token_id, secret_hash, created_at, revoked_at) VALUES (?1, ?2, ?3, ?4, ?5) "

    private static func values(_ record: AccountRecord) -> [SQLValue] {
        [
            .text(record.id.rawValue), .text(record.tokenId), .text(record.secretHash), .real(record.createdAt),
            record.revokedAt.map { .real($0) } ?? .null,
        ]
    }
}
