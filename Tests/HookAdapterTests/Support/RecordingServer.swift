import FleetCore
import Foundation
import HTTPServer
import HTTPTypes
import Synchronization

/// A loopback HTTP server (port 0) that records every `PUT /api/sessions/{sid}` it accepts.
final class RecordingServer: Sendable {
    struct Received: Equatable, Sendable {
        var sid: String
        var report: SessionReport
        var authorization: String?
    }

    let received = Mutex<[Received]>([])
    /// When true, requests never get an answer (a hung server).
    let hangs: Bool

    init(hangs: Bool = false) { self.hangs = hangs }

    var reports: [Received] { received.withLock { $0 } }

    /// Runs `body` with the server listening; returns what `body` returns.
    func serve<T: Sendable>(_ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
        let handler = HandlerFunction { [self] request in
            if hangs {
                try? await Task.sleep(for: .seconds(30))
                return HTTPResponse(status: 503)
            }
            let parts = request.pathComponents
            guard request.method == "PUT", parts.count == 3, parts[0] == "api", parts[1] == "sessions",
                let report = try? JSONDecoder().decode(SessionReport.self, from: request.body)
            else { return .error(400, "bad request") }
            received.withLock { $0.append(Received(sid: parts[2], report: report, authorization: request.header("authorization"))) }
            return .json(report)
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0), handler: handler)
        let port = try server.start()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { group.cancelAll() }
            return try await body("http://127.0.0.1:\(port)")
        }
    }
}
