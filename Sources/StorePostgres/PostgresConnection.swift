internal import CPostgres
import ControlPlane
import Foundation
import StoreSQL

/// One libpq connection. Not `Sendable`: exactly one owner (a store's actor) touches it.
///
/// Statements are prepared once per connection (named `lfg_N`) and run with text parameters; the shared
/// `?N` placeholders are rendered as PostgreSQL's `$N`. A connection the server dropped is re-opened
/// (`PQreset`) before the next statement, so a database restart costs the calls in flight, not the process.
final class PostgresConnection: SQLDatabase {
    private let handle: OpaquePointer
    /// Prepared statement names by shared SQL text; emptied when the connection is re-opened.
    private var prepared: [String: String] = [:]
    let description: String

    /// Connects to `url` (a `postgres://` URL or a libpq `key=value` string).
    /// - Parameter options: server settings for this session (`-c name=value ...`), e.g. a `search_path`.
    init(url: String, options: String? = nil) throws(StoreError) {
        description = Self.redacted(url)
        var keywords = ["dbname", "application_name", "connect_timeout"]
        var values = [url, "lfg", "5"]
        // Quiet: IF NOT EXISTS notices would otherwise reach stderr through libpq's default processor.
        keywords.append("options")
        values.append("-c client_min_messages=warning" + (options.map { " " + $0 } ?? ""))
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw StoreError(operation: "connect \(description)", message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw StoreError(
                operation: "connect \(description)",
                message: "\(message); check LFG_DATABASE_URL names a running PostgreSQL server, database and user")
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is open (after a failure, the next call re-opens it).
    var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

    func execute(_ sql: String) throws(StoreError) {
        try reopenIfNeeded()
        PostgresRoundTrips.note()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, operation: "execute \(sql.prefix(60))")
    }

    func run(_ sql: String, _ values: [SQLValue], rows: (any SQLRow) throws(StoreError) -> Void) throws(StoreError) {
        try reopenIfNeeded()
        let name = try statementName(sql)
        let texts = try values.map { value throws(StoreError) in try Self.parameterText(value, sql: sql) }
        PostgresRoundTrips.note()
        let result = Self.withOptionalCStrings(texts) { pointers in
            PQexecPrepared(handle, name, Int32(texts.count), pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, operation: "run \(sql.prefix(60))")
        guard let result else { return }
        for index in 0..<PQntuples(result) { try rows(PostgresRow(result: result, row: index)) }
    }

    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try transaction(beginning: "BEGIN", body)
    }

    /// Runs `body`'s reads in one read-only snapshot (REPEATABLE READ): another instance committing between
    /// its statements cannot tear the picture. The level is named in the BEGIN, not a round trip of its own.
    func snapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try transaction(beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T>(beginning begin: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute(begin)
        do {
            let value = try body()
            // COMMIT returns once the commit is flushed (synchronous_commit), so an answer sent after
            // it survives a killed process or a lost database host.
            try execute("COMMIT")
            return value
        } catch {
            // Best effort: a failed ROLLBACK means the connection is gone, which aborts the transaction anyway.
            if isOpen { _ = PQexec(handle, "ROLLBACK").map { PQclear($0) } }
            throw error
        }
    }

    // MARK: notifications (PostgresConnection+Notifications)

    var socketDescriptor: Int32 { PQsocket(handle) }

    func consumeInput() -> Bool { PQconsumeInput(handle) == 1 }

    func drainNotifications() -> [Notification] {
        var notifications: [Notification] = []
        while let raw = PQnotifies(handle) {
            notifications.append(Notification(channel: Self.text(raw.pointee.relname), payload: Self.text(raw.pointee.extra)))
            PQfreemem(raw)
        }
        return notifications
    }

    /// Re-opens a lost connection now; false when the server is still unreachable.
    func reopen() -> Bool {
        prepared.removeAll()
        PQreset(handle)
        return isOpen
    }

    // MARK: internals

    private func reopenIfNeeded() throws(StoreError) {
        guard !isOpen else { return }
        prepared.removeAll()
        PQreset(handle)
        guard isOpen else {
            throw StoreError(
                operation: "reconnect \(description)",
                message: "\(Self.text(PQerrorMessage(handle))); the database is unreachable, the next call tries again")
        }
    }

    private func statementName(_ sql: String) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        let name = "lfg_\(prepared.count + 1)"
        PostgresRoundTrips.note()
        let result = PQprepare(handle, name, Self.render(sql), 0, nil)
        defer { PQclear(result) }
        try check(result, operation: "prepare \(sql.prefix(60))")
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, operation: String) throws(StoreError) {
        guard let result else {
            throw StoreError(operation: operation, message: Self.text(PQerrorMessage(handle)))
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let sqlState = Self.text(PQresultErrorField(result, Int32(UInt8(ascii: "C"))))
            let message = Self.text(PQresultErrorMessage(result)).trimmingTrailingNewlines
            throw StoreError(operation: operation, message: "\(message) (SQLSTATE \(sqlState))")
        }
    }

    /// `?N` (the shared dialect) as `$N`. The shared SQL never holds a literal `?`.
    static func render(_ sql: String) -> String { sql.replacingOccurrences(of: "?", with: "$") }

    private static func parameterText(_ value: SQLValue, sql: String) throws(StoreError) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw StoreError(
                    operation: "bind \(sql.prefix(60))",
                    message: "PostgreSQL text cannot hold a NUL character; the value was refused and nothing written")
            }
            return text
        }
    }

    /// The URL without its password, for errors.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].firstIndex(of: "@") else {
            return url.contains("password") ? "(the LFG_DATABASE_URL connection string)" : url
        }
        let userInfo = url[schemeEnd.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":…" + String(url[at...])
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        withOptionalCStrings(strings, body)
    }

    /// Copies `strings` into C strings (nil stays NULL) alive for `body`, followed by one NULL (the end of
    /// a keyword list; never counted as a parameter, and it keeps an empty list's pointer valid).
    private static func withOptionalCStrings<R>(
        _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } } + [nil]
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!) }
    }
}

/// One row of a result (text format).
struct PostgresRow: SQLRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: Int32

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }

    func text(_ column: Int32) -> String {
        guard let bytes = PQgetvalue(result, row, column) else { return "" }
        let count = Int(PQgetlength(result, row, column))
        return bytes.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        }
    }

    func real(_ column: Int32) -> Double { Double(text(column)) ?? 0 }
    func integer(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
