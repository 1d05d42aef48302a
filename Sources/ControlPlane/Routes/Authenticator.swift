import Foundation
import HTTPTypes
import Synchronization

/// Who may call the API: a bearer token, or the cookie the one-time login URL sets for the dashboard.
public final class Authenticator: Sendable {
    /// The cookie the login URL sets.
    public static let cookieName = "lfg_auth"

    private let token: String
    private let loginCode: Mutex<String?>

    /// - Parameters:
    ///   - token: the bearer token every API call must carry.
    ///   - loginCode: the secret of the one-time login URL (`/login?code=...`); nil disables it.
    public init(token: String, loginCode: String?) {
        self.token = token
        self.loginCode = Mutex(loginCode)
    }

    /// Whether `request` carries the token, as `Authorization: Bearer` or as the login cookie.
    public func isAuthorized(_ request: HTTPRequest) -> Bool {
        if let header = request.header("Authorization"), header.hasPrefix("Bearer ") {
            return Self.isEqual(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces), token)
        }
        if let cookies = request.header("Cookie") {
            for pair in cookies.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == Self.cookieName, Self.isEqual(String(parts[1]), token) { return true }
            }
        }
        return false
    }

    /// Answers `GET /login?code=...`: the first use of the right code sets the cookie and redirects to `/`.
    public func login(_ request: HTTPRequest) -> HTTPResponse {
        let isValid = loginCode.withLock { code in
            guard let expected = code, let given = request.query["code"], Self.isEqual(given, expected) else {
                return false
            }
            code = nil  // one time only
            return true
        }
        guard isValid else {
            return .error(401, "this login link is wrong or was already used; restart lfg serve for a new one")
        }
        return HTTPResponse(
            status: 303,
            headers: [
                ("Location", "/"),
                ("Set-Cookie", "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/"),
            ])
    }

    /// Compares in time independent of where the strings differ.
    static func isEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// A new random secret: 32 bytes as 64 lower-case hex characters.
    public static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
