import ControlPlane

/// A value bound to a statement parameter. Bound values never appear in errors.
public enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// One row of a result, read by column index (0-based).
public protocol SQLRow {
    func text(_ column: Int32) -> String
    func real(_ column: Int32) -> Double
    func integer(_ column: Int32) -> Int64
    func isNull(_ column: Int32) -> Bool
}

extension SQLRow {
    public func optionalReal(_ column: Int32) -> Double? { isNull(column) ? nil : real(column) }
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

/// One connection to a SQL database, as the shared schema code (``StoreTables``, ``StoreMigrator``) uses it.
///
/// Statements are written once, in the dialect both SQLite and PostgreSQL accept: parameters are `?1`,
/// `?2`... (an adapter renders them in its own form), upserts are `INSERT ... ON CONFLICT (...) DO UPDATE`.
/// Not `Sendable`: exactly one owner (the store's actor) touches a connection.
public protocol SQLDatabase: AnyObject {
    /// Runs SQL with no parameters and no rows wanted (may hold several statements).
    func execute(_ sql: String) throws(StoreError)
    /// Binds `values` to `?1...?n`, runs the statement, and hands every row to `rows`.
    func run(_ sql: String, _ values: [SQLValue], rows: (any SQLRow) throws(StoreError) -> Void) throws(StoreError)
    /// Runs `body` in one transaction: committed (durably) when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T
}

extension SQLDatabase {
    /// Runs a statement whose rows are not wanted.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) {
        try run(sql, values) { _ in }
    }
}
