import AsyncTesting
import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
import Synchronization

/// Runs `body` against a server on a free loopback port, then cancels the server and waits for its shutdown.
func withServer(
    maxBodyBytes: Int = HTTPServerConfiguration.contractMaxBodyBytes, handler: some HTTPHandler,
    _ body: (_ baseURL: String) async throws -> Void
) async throws {
    let server = HTTPServer(configuration: .init(port: 0, maxBodyBytes: maxBodyBytes), handler: handler)
    let port = try server.start()
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        try await body("http://127.0.0.1:\(port)")
        group.cancelAll()
        try await group.waitForAll()
    }
}

/// Records what a handler saw, for assertions after the request.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func record(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

extension Recorder where Value == String {
    /// A handler that records each request's path and answers `{"ok": true}`.
    var pathRecorder: HandlerFunction {
        HandlerFunction { [self] request in
            record(request.path)
            return .json(["ok": true])
        }
    }
}

/// A one-shot signal a test awaits instead of sleeping; the wait is bounded, so a signal that never
/// fires is a named failure.
final class Signal: Sendable {
    private let fired = Inbox<Void>()
    let name: String
    init(_ name: String) { self.name = name }
    func fire() { fired.yield(()) }
    func wait() async throws { _ = try await fired.next(name) }
}
