import FleetCore
import Foundation
import HTTPTypes

extension ControlPlaneCall {
    /// The call as an in-memory HTTP request (path decoded, as a handler sees it), with bearer auth.
    public func httpRequest(bearerToken: String) throws(ControlPlaneError) -> HTTPRequest {
        let body: Data?
        do {
            body = try encodedBody()
        } catch {
            throw .unreadableAnswer("the request body could not be encoded: \(error)")
        }
        var headers = ["Authorization": "Bearer \(bearerToken)"]
        if body != nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(
            method: method, path: "/" + pathSegments.joined(separator: "/"), headers: headers, body: body ?? Data())
    }

    /// What an answer with `status` and `body` means for this call: the reply, or the error to report.
    public func reply(status: Int, body: Data) throws(ControlPlaneError) -> ControlPlaneReply {
        // A 409 to an answer is not a failure to retry: its body is the question as it stands (who was first).
        if case .answerQuestion = self, status == 409, let question = try? JSONDecoder().decode(Question.self, from: body) {
            return .question(question)
        }
        guard (200..<300).contains(status) else {
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error ?? "no error text"
            throw .rejected(status: status, message: message)
        }
        do {
            switch self {
            case .fetchSessions: return .sessions(try JSONDecoder().decode(SessionsReply.self, from: body))
            case .fetchDevice: return .device(try JSONDecoder().decode(DeviceChannelInfo.self, from: body))
            case .answerQuestion: return .question(try JSONDecoder().decode(Question.self, from: body))
            default: return .accepted
            }
        } catch {
            throw .unreadableAnswer("\(error)")
        }
    }
}

/// A ``ControlPlaneClient`` that hands each call to an in-process handler (the control plane's router):
/// for the simulator and for end-to-end tests with no sockets.
public struct HTTPHandlerControlPlaneClient: ControlPlaneClient {
    let handler: any HTTPHandler

    public init(_ handler: any HTTPHandler) { self.handler = handler }

    public func perform(_ call: ControlPlaneCall, on server: ServerProfile) async throws(ControlPlaneError)
        -> ControlPlaneReply
    {
        let response = await handler.respond(to: try call.httpRequest(bearerToken: server.bearerToken))
        return try call.reply(status: response.status, body: response.bodyData ?? Data())
    }
}
