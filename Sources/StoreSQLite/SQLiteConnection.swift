internal import CSQLite
import ControlPlane
import StoreSQL

/// SQLite's "copy the bytes now" destructor: the bound buffer may be freed as soon as bind returns.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection. Not `Sendable`: exactly one owner (the ``SQLiteStore`` actor) touches it.
final class SQLiteConnection: SQLDatabase {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating) the database at `path` in WAL mode; `isExclusive`: this connection is the file's
    /// only user for its life (see ``SQLiteStore/init(path:now:isExclusive:)``).
    init(path: String, isExclusive: Bool = false) throws(StoreError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(
                operation: "open \(path)", code: code, message: "\(message); check that LFG_HOME exists and is writable")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        // Before WAL is entered, so SQLite keeps the WAL index in this process and takes its file locks
        // once, not around every transaction (those fcntl calls were a few % of the server's time under
        // ingest load, bench/ingest.sh).
        if isExclusive { try execute("PRAGMA locking_mode=EXCLUSIVE") }
        // WAL: a commit is durable against a killed process the moment it returns; NORMAL sync skips
        // the fsync per commit (only a power loss could cost the last commits).
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL with no parameters and no rows wanted (may hold several statements).
    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw StoreError(operation: "execute \(sql.prefix(60))", code: code, message: message)
        }
    }

    /// A prepared statement for `sql`, cached for the connection's life.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard code == SQLITE_OK, let raw else {
            throw StoreError(operation: "prepare \(sql.prefix(60))", code: code, message: lastMessage)
        }
        let statement = SQLiteStatement(raw, connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a cached prepared statement for `sql` with `values` bound to ?1...?n.
    func run(_ sql: String, _ values: [SQLValue], rows: (any SQLRow) throws(StoreError) -> Void) throws(StoreError) {
        try statement(sql).run(values) { row throws(StoreError) in try rows(row) }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// One prepared statement: bind (64-bit, explicit byte counts, transient copies), step, read, reset.
final class SQLiteStatement {
    private let raw: OpaquePointer
    private unowned let connection: SQLiteConnection
    private let sql: String

    init(_ raw: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.raw = raw
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(raw) }

    /// Binds `values` to ?1...?n, runs the statement to completion, and returns every row.
    func run(_ values: [SQLValue] = [], rows: (SQLiteRow) throws(StoreError) -> Void = { _ in }) throws(StoreError) {
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(raw, index, number)
            case .real(let number): code = sqlite3_bind_double(raw, index, number)
            case .null: code = sqlite3_bind_null(raw, index)
            case .text(let text): code = bindText(text, at: index)
            }
            guard code == SQLITE_OK else { throw error("bind", code) }
        }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error("step", code) }
            try rows(SQLiteRow(raw: raw))
        }
    }

    /// Binds `text` from its own UTF-8 bytes (copied by SQLite), without copying them into an array first.
    private func bindText(_ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // An empty buffer may have no address, and a NULL pointer would bind NULL rather than ''.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text64(raw, index, "", 0, transient, UInt8(SQLITE_UTF8))
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                sqlite3_bind_text64(raw, index, chars, sqlite3_uint64(bytes.count), transient, UInt8(SQLITE_UTF8))
            }
        }
    }

    private func error(_ operation: String, _ code: Int32) -> StoreError {
        StoreError(operation: "\(operation) \(sql.prefix(60))", code: code, message: connection.lastMessage)
    }
}

/// The current row of a stepping statement.
struct SQLiteRow: SQLRow {
    fileprivate let raw: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
