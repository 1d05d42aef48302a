import APNs
import FleetCore
import Foundation
import HTTPTypes
import Synchronization

/// Who may call the API: a bearer token, or a browser session the sign-in page or a one-time login
/// link started (the dashboard).
///
/// The session cookie is never the token: it is a random id, kept in memory only (a restart signs every
/// browser out, the clear rule), expiring after ``sessionLifetime`` and revoked by `POST /logout`.
/// A write carried only by the cookie must also send ``csrfHeader`` with the session's anti-forgery
/// value (the page reads it from the non-HttpOnly ``csrfCookieName`` cookie), so another site or
/// localhost port that makes the browser send the cookie cannot write.
public final class Authenticator: Sendable {
    /// The session cookie (HttpOnly).
    public static let cookieName = "lfg_session"
    /// The anti-forgery value's cookie, readable by the page.
    public static let csrfCookieName = "lfg_csrf"
    /// The header a cookie-only write must carry, equal to the session's anti-forgery value.
    public static let csrfHeader = "X-LFG-CSRF"
    /// How long a browser session lasts.
    public static let sessionLifetime: Double = 12 * 3600
    /// How long a one-time login link can be used.
    public static let loginCodeLifetime: Double = 15 * 60

    /// How a request is authorized.
    public enum Authorization: Equatable, Sendable {
        /// The owner's bearer token.
        case bearer
        /// A browser session, with its anti-forgery value (the owner, in the dashboard).
        case session(csrf: String)
        /// An account's token (contract 8.4): every route, over that account's rows only; no dashboard,
        /// no accounts.
        case account(AccountRecord)
        /// A paired device's own credential, in the account that paired it: only the routes ``DeviceAccess`` lists.
        case device(DeviceCredentialRecord, account: AccountID)
        case none

        /// Whether the install owner is calling (token or dashboard), as opposed to an account, a paired
        /// device or no one.
        public var isOwner: Bool {
            switch self {
            case .bearer, .session: true
            case .account, .device, .none: false
            }
        }
    }

    private struct State {
        var loginCodes: [String: UnixTime] = [:]
        var sessions: [String: (csrf: String, expiresAt: UnixTime)] = [:]
    }

    private let token: String
    private let now: @Sendable () -> UnixTime
    private let state = Mutex(State())

    /// - Parameters:
    ///   - token: the bearer token every API call must carry.
    ///   - loginCode: a first one-time login code (`/login?code=...`, printed at start); nil for none.
    ///   - now: the wall clock, Unix seconds (expiry of codes and sessions).
    public init(token: String, loginCode: String?, now: @escaping @Sendable () -> UnixTime = { WallClock.system.now }) {
        self.token = token
        self.now = now
        if let loginCode { state.withLock { $0.loginCodes[loginCode] = now() + Self.loginCodeLifetime } }
    }

    /// How `request` is authorized: `Authorization: Bearer <token>` (the owner's, a live account's, or a
    /// live credential of a device paired in one of `accounts`), a live session cookie, or not at all.
    public func authorize(_ request: HTTPRequest, accounts: AccountDirectory? = nil) -> Authorization {
        if let bearer = Self.bearer(request) {
            if Self.isEqual(bearer, token) { return .bearer }
            if let record = accounts?.account(bearer: bearer) { return .account(record) }
            return accounts?.device(bearer: bearer).map { .device($0.0, account: $0.1) } ?? .none
        }
        guard let id = Self.cookie(Self.cookieName, in: request) else { return .none }
        let current = now()
        return state.withLock { state in
            state.sessions = state.sessions.filter { $0.value.expiresAt > current }
            guard let session = state.sessions.first(where: { Self.isEqual($0.key, id) })?.value else { return .none }
            return .session(csrf: session.csrf)
        }
    }

    /// Whether `request` is authorized at all.
    public func isAuthorized(_ request: HTTPRequest) -> Bool { authorize(request) != .none }

    /// A new one-time login code, valid for ``loginCodeLifetime``.
    public func makeLoginCode() -> String {
        let code = Self.makeSecret()
        let expiresAt = now() + Self.loginCodeLifetime
        state.withLock { $0.loginCodes[code] = expiresAt }
        return code
    }

    /// Answers `GET /login?code=...`: a live code, once, starts a session and redirects to `/`.
    public func login(_ request: HTTPRequest) -> HTTPResponse {
        let current = now()
        let isValid = state.withLock { state in
            state.loginCodes = state.loginCodes.filter { $0.value > current }
            guard let given = request.query["code"],
                let code = state.loginCodes.keys.first(where: { Self.isEqual($0, given) })
            else { return false }
            state.loginCodes[code] = nil  // one time only
            return true
        }
        guard isValid else {
            return .error(401, "this login link is wrong, expired or was already used; run lfg login-link for a new one")
        }
        return HTTPResponse(status: 303, headers: [("Location", "/")] + startSession())
    }

    /// Answers `POST /login` with `{"token": "..."}` (the sign-in page): the right token starts a session.
    public func signIn(_ request: HTTPRequest) -> HTTPResponse {
        struct Body: Decodable { var token: String }
        guard let body = try? JSONDecoder().decode(Body.self, from: request.body), Self.isEqual(body.token, token) else {
            return .error(401, "wrong token; paste the whole content of $LFG_HOME/auth-token", field: "token")
        }
        var response = HTTPResponse.json(["ok": true])
        response.headers += startSession()
        return response
    }

    /// Answers `POST /logout`: the session ends now, and its cookies are cleared.
    public func logout(_ request: HTTPRequest) -> HTTPResponse {
        if let id = Self.cookie(Self.cookieName, in: request) {
            state.withLock { $0.sessions[id] = nil }
        }
        var response = HTTPResponse.json(["ok": true])
        response.headers += [
            ("Set-Cookie", "\(Self.cookieName)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
            ("Set-Cookie", "\(Self.csrfCookieName)=; SameSite=Strict; Path=/; Max-Age=0"),
        ]
        return response
    }

    /// A new session: its two cookies.
    private func startSession() -> [(name: String, value: String)] {
        let id = Self.makeSecret()
        let csrf = Self.makeSecret()
        let expiresAt = now() + Self.sessionLifetime
        state.withLock { $0.sessions[id] = (csrf, expiresAt) }
        let age = Int(Self.sessionLifetime)
        return [
            ("Set-Cookie", "\(Self.cookieName)=\(id); HttpOnly; SameSite=Strict; Path=/; Max-Age=\(age)"),
            ("Set-Cookie", "\(Self.csrfCookieName)=\(csrf); SameSite=Strict; Path=/; Max-Age=\(age)"),
        ]
    }

    /// The token after `Authorization: Bearer `, if the request carries one.
    static func bearer(_ request: HTTPRequest) -> String? {
        // Lower-case names and a byte offset: every request comes through here (bench/ingest.sh's profile).
        guard let header = request.header("authorization"), header.hasPrefix("Bearer ") else { return nil }
        return String(Substring(header.utf8.dropFirst(7)).trimmingHTTPWhitespace)
    }

    /// The value of cookie `name`, if the request carries it.
    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        guard let cookies = request.header("Cookie") else { return nil }
        for pair in cookies.split(separator: ";") {
            let parts = pair.trimmingHTTPWhitespace.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == name { return String(parts[1]) }
        }
        return nil
    }

    /// Compares in time independent of where the strings differ.
    static func isEqual(_ lhs: String, _ rhs: String) -> Bool {
        // Over the strings' own bytes when they have them (every request's bearer token comes here: two
        // arrays per request showed in bench/ingest.sh's profile); copied only when they do not.
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in isEqual(left, right) }
        }
        if let compared, let compared { return compared }
        return Array(lhs.utf8).withUnsafeBufferPointer { left in
            Array(rhs.utf8).withUnsafeBufferPointer { right in isEqual(left, right) }
        }
    }

    private static func isEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
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
