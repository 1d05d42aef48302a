import Foundation

/// One HTTP response: a status, headers, and either a whole body or a stream of chunks (server-sent events).
public struct HTTPResponse: Sendable {
    /// What follows the headers.
    public enum Body: Sendable {
        /// The whole body at once.
        case bytes(Data)
        /// Chunks written as they arrive until the stream finishes or the client goes away
        /// (the server then cancels by dropping its iterator, which ends the producer's `onTermination`).
        case stream(AsyncStream<Data>)
    }

    public var status: Int
    /// Header fields in order; names as given.
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response of `value`, encoded with sorted keys.
    public static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        jsonBytes(jsonBody(value), status: status)
    }

    /// `value` as an answer body: its JSON, or `{}` for a value JSON cannot hold (a non-finite number).
    /// The one rule for every answer body, whether it goes out at once or is kept for later answers.
    public static func jsonBody(_ value: some Encodable) -> Data {
        (try? WireJSON.encode(value)) ?? Data("{}".utf8)
    }

    /// A JSON response whose body is already encoded (`bytes` must be JSON).
    public static func jsonBytes(_ bytes: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: .bytes(bytes))
    }

    /// A JSON answer's headers: one shared array rather than a new one per answer.
    private static let jsonHeaders = [(name: "Content-Type", value: "application/json")]

    /// The contract's error shape: `{"error": "<what is wrong>", "field": "<name>"?}`.
    public static func error(_ status: Int, _ message: String, field: String? = nil) -> HTTPResponse {
        json(ErrorBody(error: message, field: field), status: status)
    }

    /// The whole body, when it is not a stream.
    public var bodyData: Data? {
        if case .bytes(let data) = body { return data }
        return nil
    }

    /// A header's value by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The body of every API error.
public struct ErrorBody: Codable, Equatable, Sendable {
    public var error: String
    public var field: String?

    public init(error: String, field: String? = nil) {
        self.error = error
        self.field = field
    }
}
