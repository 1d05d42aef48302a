import Foundation

/// A response whose body arrives over time (server-sent events): the head at once, then chunks.
///
/// Stop reading by cancelling the reading task, or call `cancel()`; either aborts the transfer.
public struct HTTPClientStream: Sendable {
    public let status: Int
    /// Header fields in order, names as the server sent them.
    public let headers: [(name: String, value: String)]
    /// Body chunks as they arrive; finishes when the server ends the body, throws `HTTPClientError` on failure.
    public let chunks: AsyncThrowingStream<Data, any Error>
    let abort: @Sendable () -> Void

    /// A header's value by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as text lines, without their `\n` or `\r\n` (an SSE event ends with an empty line).
    public var lines: HTTPClientLines { HTTPClientLines(chunks: chunks) }

    /// Aborts the transfer; the chunk stream finishes.
    public func cancel() { abort() }
}

/// The lines of a streamed body, split on `\n` with a trailing `\r` removed.
public struct HTTPClientLines: AsyncSequence, Sendable {
    public typealias Element = String
    let chunks: AsyncThrowingStream<Data, any Error>

    public func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks.makeAsyncIterator()) }

    public struct Iterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<Data, any Error>.Iterator
        var pending = Data()
        var isAtEnd = false

        public mutating func next() async throws -> String? {
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = pending[pending.startIndex..<newline]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    pending = Data(pending[(newline + 1)...])
                    return String(decoding: line, as: UTF8.self)
                }
                if isAtEnd {
                    guard !pending.isEmpty else { return nil }
                    defer { pending = Data() }
                    return String(decoding: pending, as: UTF8.self)
                }
                if let chunk = try await chunks.next() { pending.append(chunk) } else { isAtEnd = true }
            }
        }
    }
}
