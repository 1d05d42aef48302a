import FleetCore
import HookAdapter
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
        /// The `LFG-Report-Seq` header.
        var seq: Int?
    }

    let received = Mutex<[Received]>([])
    /// When true, requests never get an answer (a hung server).
    let hangs: Bool
    /// How many of the next requests are received and then never answered.
    let unansweredLeft: Mutex<Int>
    /// Yields each request never answered, as it arrives.
    let unanswered: AsyncStream<Received>
    private let unansweredContinuation: AsyncStream<Received>.Continuation

    init(hangs: Bool = false, leaveUnanswered: Int = 0) {
        self.hangs = hangs
        unansweredLeft = Mutex(leaveUnanswered)
        (unanswered, unansweredContinuation) = AsyncStream.makeStream(of: Received.self)
    }

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
            let arrival = Received(
                sid: parts[2], report: report, authorization: request.header("authorization"),
                seq: request.header(SpooledReport.seqHeader.lowercased()).flatMap { Int($0) })
            if unansweredLeft.withLock({ left in
                defer { left = max(0, left - 1) }
                return left > 0
            }) {
                unansweredContinuation.yield(arrival)
                try? await Task.sleep(for: .seconds(30))
                return HTTPResponse(status: 503)
            }
            received.withLock { $0.append(arrival) }
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
