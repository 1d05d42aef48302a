import FleetCore
import Foundation
import HTTPClient

/// Long polls the control plane at `baseURL` with the bearer token.
public struct HTTPQuestionPoller: QuestionPoller {
    /// Seconds a request may take beyond the server's own timeout (connect, answer, a loaded machine).
    static let requestMargin = 5.0

    let client: HTTPClient
    let baseURL: String
    let token: String?

    public init(client: HTTPClient, baseURL: String, token: String?) {
        self.client = client
        self.baseURL = baseURL
        self.token = token
    }

    public func wait(for id: QuestionID, seconds: Double) async -> PollResult {
        var headers: [(name: String, value: String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let timeout = String(format: "%.3f", max(0, seconds))
        let request = HTTPClientRequest(
            method: "GET",
            url: baseURL + "/api/questions/" + HTTPReportDelivery.pathSegment(id.rawValue) + "/wait?timeout=" + timeout,
            headers: headers, timeout: .milliseconds(Int64((seconds + Self.requestMargin) * 1000)))
        guard let response = try? await client.send(request) else { return .unreachable }
        if response.status == 404 { return .unknown }
        guard response.status == 200, let question = try? JSONDecoder().decode(Question.self, from: response.body) else {
            return .unreachable
        }
        return .question(question)
    }
}
