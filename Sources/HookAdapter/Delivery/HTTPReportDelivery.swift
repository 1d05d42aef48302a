import Foundation
import HTTPClient
import HTTPTypes

/// Delivers reports to the control plane: `PUT {url}/api/sessions/{sid}` with the bearer token.
public struct HTTPReportDelivery: ReportDelivery {
    let client: HTTPClient
    let baseURL: String
    let token: String?

    /// `baseURL` like `http://127.0.0.1:8766` (no trailing slash); `token` nil sends no Authorization.
    public init(client: HTTPClient, baseURL: String, token: String?) {
        self.client = client
        self.baseURL = baseURL
        self.token = token
    }

    public func deliver(_ report: SpooledReport, timeout: Double) async -> DeliveryOutcome {
        let body: Data
        do {
            body = try WireJSON.encode(report.report)
        } catch {
            return .rejected(status: 0)
        }
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let seq = report.seq { headers.append((SpooledReport.seqHeader, String(seq))) }
        let request = HTTPClientRequest(
            method: "PUT", url: baseURL + "/api/sessions/" + Self.pathSegment(report.sid.rawValue), headers: headers,
            body: body, timeout: .milliseconds(max(1, Int64(timeout * 1000))))
        do {
            let response = try await client.send(request)
            return .forStatus(response.status)
        } catch {
            // The client's messages name the address and curl's reason, never the token.
            if case .timedOut = error { return .timedOut(reason: error.description) }
            return .failed(reason: error.description)
        }
    }

    /// `sid` percent-encoded as one path segment (unreserved characters kept).
    static func pathSegment(_ sid: String) -> String {
        var encoded = ""
        for byte in sid.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}
