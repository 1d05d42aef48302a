import FleetCore
import Foundation
import HTTPTypes

/// What every write (any method but GET and HEAD) must carry besides auth: a JSON body declared as
/// such, and, when only the dashboard's session cookie authorizes it, the anti-forgery header.
///
/// Why: a browser sends the cookie with a form post from any page, and a `text/plain` body needs no
/// preflight; neither can set a custom header or `application/json` cross-site without our consent.
enum WriteRule {
    /// The media types a body may be declared as.
    static let jsonTypes: Set<String> = ["application/json", "application/merge-patch+json"]

    /// The refusal for `request`, or nil when it may proceed.
    static func refusal(_ request: HTTPRequest, _ authorization: Authenticator.Authorization) -> HTTPResponse? {
        guard request.method != "GET", request.method != "HEAD" else { return nil }
        if case .session(let csrf) = authorization {
            guard let given = request.header(Authenticator.csrfHeader), Authenticator.isEqual(given, csrf) else {
                return .error(
                    403, "a write signed in only by the dashboard's cookie must carry the \(Authenticator.csrfHeader) header "
                        + "(the \(Authenticator.csrfCookieName) cookie's value); scripts send Authorization: Bearer instead")
            }
        }
        guard !request.body.isEmpty else { return nil }
        // The media type before any parameter, compared without building strings (every write comes here).
        let mediaType = request.header("content-type").map {
            Substring($0.utf8.prefix { $0 != UInt8(ascii: ";") }).trimmingHTTPWhitespace
        }
        guard let mediaType, jsonTypes.contains(where: { isSameIgnoringASCIICase($0, mediaType) }) else {
            let declared = mediaType?.lowercased()
            return .error(
                415, "send the body as JSON with Content-Type: application/json (got \(declared.map { "'\($0)'" } ?? "none"))",
                field: "Content-Type")
        }
        return nil
    }

    /// Whether `text` is `lowercase` with any ASCII letters in either case (a media type is case-insensitive).
    private static func isSameIgnoringASCIICase(_ lowercase: String, _ text: Substring) -> Bool {
        lowercase.utf8.count == text.utf8.count
            && zip(lowercase.utf8, text.utf8).allSatisfy { expected, byte in
                expected == (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
    }
}

/// Paths the command line calls.
public enum APIPaths {
    /// `POST`: a new one-time dashboard login link (bearer only) -> `{"path": "/login?code=...", "expiresInSeconds"}`.
    public static let loginLinks = "/api/login-links"
}

extension APIRouter {
    /// `POST /api/login-links`: a new one-time login link, for `lfg login-link`; the bearer token only
    /// (a browser session cannot mint more sessions).
    func loginLink(_ request: HTTPRequest, _ authorization: Authenticator.Authorization) -> HTTPResponse {
        guard request.method == "POST" else { return Self.methodNotAllowed(["POST"]) }
        guard authorization == .bearer else {
            return .error(403, "login links are made with Authorization: Bearer only (run lfg login-link)")
        }
        struct Body: Encodable { var path: String; var expiresInSeconds: Int }
        return .json(Body(path: "/login?code=\(authenticator.makeLoginCode())", expiresInSeconds: Int(Authenticator.loginCodeLifetime)))
    }
}
