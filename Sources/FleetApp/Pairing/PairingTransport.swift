import FleetCore
import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the app sends pairing's requests (`POST /api/pair`, `DELETE /api/pair`) to a server named only by
/// its base URL: URLSession on the phone, the router in process or a real socket in tests.
public protocol PairingTransport: Sendable {
    /// Sends `request` (path and headers set) to `baseURL`; returns the status and body, or throws when
    /// nothing answered.
    func send(_ request: HTTPRequest, to baseURL: String) async throws(ControlPlaneError) -> (status: Int, body: Data)
}

/// A ``PairingTransport`` that hands each request to an in-process handler (the control plane's router).
public struct HTTPHandlerPairingTransport: PairingTransport {
    let handler: any HTTPHandler

    public init(_ handler: any HTTPHandler) { self.handler = handler }

    public func send(_ request: HTTPRequest, to baseURL: String) async throws(ControlPlaneError) -> (status: Int, body: Data) {
        let response = await handler.respond(to: request)
        return (response.status, response.bodyData ?? Data())
    }
}

/// The phone's ``PairingTransport``. Not exercised by the Linux tests (see ``URLSessionControlPlaneClient``).
public final class URLSessionPairingTransport: PairingTransport {
    let session: URLSession

    public init(session: URLSession = .shared) { self.session = session }

    public func send(_ request: HTTPRequest, to baseURL: String) async throws(ControlPlaneError) -> (status: Int, body: Data) {
        guard let url = URL(string: baseURL + request.path), url.scheme != nil else { throw .badServerURL(baseURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            throw .unreachable("\(error)")
        }
    }
}
