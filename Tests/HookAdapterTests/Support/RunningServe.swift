import AsyncTesting
import Foundation
import HTTPClient
import LFGCommand

/// `lfg serve --port 0` running in this process, for end-to-end tests.
enum RunningServe {
    struct NotListening: Error, CustomStringConvertible {
        var output: String
        var description: String { "lfg serve stopped before listening: \(output)" }
    }

    /// Runs `body` with `lfg serve` listening (its URL passed in), then stops the server.
    static func with<T: Sendable>(
        environment: [String: String], _ body: @Sendable (_ url: String) async throws -> T
    ) async throws -> T {
        let (output, continuation) = AsyncStream.makeStream(of: String.self)
        let context = CommandContext(
            readInput: { Data() }, write: { continuation.yield($0) }, writeError: { continuation.yield($0) },
            environment: environment)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = await LFG.main(arguments: ["serve", "--port", "0"], context: context)
                continuation.finish()
            }
            defer { group.cancelAll() }
            var printed = ""
            let lines = Inbox(draining: output)
            while let text = try await lines.next("lfg serve to print its listening line") {
                printed += text
                if let url = listeningURL(in: printed) { return try await body(url) }
            }
            throw NotListening(output: printed)
        }
    }

    /// `http://127.0.0.1:N` from the line `lfg serve: listening on http://127.0.0.1:N (...)`.
    static func listeningURL(in text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains("listening on ") }),
            let start = line.range(of: "listening on ")?.upperBound
        else { return nil }
        return String(line[start...].prefix { $0 != " " })
    }

    /// `GET /api/sessions`: each listed session's JSON object by sid.
    static func sessions(_ url: String, token: String) async throws -> [String: [String: Any]] {
        let response = try await HTTPClient().send(
            HTTPClientRequest(url: url + "/api/sessions", headers: [("Authorization", "Bearer \(token)")]))
        let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let list = body?["sessions"] as? [[String: Any]] ?? []
        var bySid: [String: [String: Any]] = [:]
        for session in list {
            if let sid = session["sid"] as? String { bySid[sid] = session }
        }
        return bySid
    }
}
