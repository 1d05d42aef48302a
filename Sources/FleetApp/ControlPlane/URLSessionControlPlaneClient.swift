#if canImport(Foundation)
import FleetCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The phone's ``ControlPlaneClient``: URLSession, bearer auth, JSON.
///
/// Not exercised by the Linux tests (FoundationNetworking with the backported libcurl is unreliable
/// there); ``ControlPlaneCall`` builds every path and body and is tested on its own.
public final class URLSessionControlPlaneClient: ControlPlaneClient {
    let session: URLSession

    public init(session: URLSession = .shared) { self.session = session }

    public func perform(_ call: ControlPlaneCall, on server: ServerProfile) async throws(ControlPlaneError)
        -> ControlPlaneReply
    {
        let request = try makeRequest(call, on: server)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable("\(error)")
        }
        return try call.reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    func makeRequest(_ call: ControlPlaneCall, on server: ServerProfile) throws(ControlPlaneError) -> URLRequest {
        var request = try server.request(path: call.path)
        request.httpMethod = call.method
        do {
            if let body = try call.encodedBody() {
                request.httpBody = body
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        } catch {
            throw .unreadableAnswer("the request body could not be encoded: \(error)")
        }
        return request
    }
}
#endif
