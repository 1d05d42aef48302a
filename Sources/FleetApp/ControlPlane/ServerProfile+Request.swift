#if canImport(Foundation)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ServerProfile {
    /// A request for `path` (already percent-encoded, starting with `/`) on this server, with its bearer
    /// credential: the one place a server's address and credential become a URLRequest.
    public func request(path: String) throws(ControlPlaneError) -> URLRequest {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        guard let url = URL(string: base + path), url.scheme != nil else { throw .badServerURL(baseURL) }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(bearerToken)", forHTTPHeaderField: "Authorization")
        return request
    }
}
#endif
