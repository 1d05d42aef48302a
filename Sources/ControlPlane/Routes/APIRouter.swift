import FleetCore
import Foundation
import HTTPTypes

/// The control plane's HTTP API (contract section 5) as one in-memory handler.
///
/// Order of checks: body size (413), auth (401, except `GET /healthz` and the login URL), route (404),
/// method (405), input (400, naming the field). Every rejection happens before anything changes.
public struct APIRouter: HTTPHandler {
    /// The largest body accepted: 64 KiB.
    public static let maxBodyBytes = 64 * 1024

    /// The owner's service and every account's (contract 8.4); a request reaches only its own account's.
    let accounts: AccountDirectory
    let authenticator: Authenticator
    let dashboard: (any HTTPHandler)?
    let signInPage: (any HTTPHandler)?

    /// - Parameters:
    ///   - dashboard: answers authorized requests outside `/api/` that no route matched (the web UI).
    ///   - signInPage: answers unauthorized `GET`s outside `/api/` (the sign-in page) instead of a 401.
    public init(
        service: ControlPlaneService, authenticator: Authenticator, dashboard: (any HTTPHandler)? = nil,
        signInPage: (any HTTPHandler)? = nil
    ) {
        self.init(accounts: AccountDirectory(owner: service), authenticator: authenticator, dashboard: dashboard, signInPage: signInPage)
    }

    /// A router over the owner's service and every account's (`accounts.owner` is the owner's).
    public init(
        accounts: AccountDirectory, authenticator: Authenticator, dashboard: (any HTTPHandler)? = nil,
        signInPage: (any HTTPHandler)? = nil
    ) {
        self.accounts = accounts
        self.authenticator = authenticator
        self.dashboard = dashboard
        self.signInPage = signInPage
    }

    /// `METHOD /path/pattern` of every route an account's token reaches (each account has its own copy,
    /// over its own service): what the cross-account tests walk, so a new route cannot go unchecked.
    public var accountRouteTemplates: [String] { accounts.owner.routes.map(\.template) }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.body.count <= Self.maxBodyBytes else {
            return .error(413, "the body is over \(Self.maxBodyBytes) bytes; send less")
        }
        guard let path = Self.pathSegments(request) else {
            return .error(400, "the path is not valid percent-encoded UTF-8; encode each byte as %XX of UTF-8 text")
        }
        if path == ["healthz"] {
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed(["GET"]) }
            return .json(["ok": true])
        }
        if path == ["readyz"] {
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed(["GET"]) }
            return await readiness()
        }
        if path == ["login"], request.method == "GET" { return authenticator.login(request) }
        if path == ["login"], request.method == "POST" { return authenticator.signIn(request) }
        if path == ["logout"], request.method == "POST" { return authenticator.logout(request) }
        if path == ["api", "pair"] { return await pairRoute(request) }
        let authorization = authenticator.authorize(request, accounts: accounts)
        guard authorization != .none, let tenant = accounts.tenant(for: authorization) else {
            if let signInPage, path.first != "api", request.method == "GET" || request.method == "HEAD" {
                return await signInPage.respond(to: request)
            }
            if let bearer = Authenticator.bearer(request), CredentialText.device.parse(bearer) != nil {
                return .error(401, "this device's credential was revoked or is unknown; pair the device again (lfg pair)")
            }
            if let bearer = Authenticator.bearer(request), CredentialText.account.parse(bearer) != nil {
                return .error(401, "this account's token was revoked or is unknown; ask the server's operator (lfg accounts list)")
            }
            return HTTPResponse.error(401, "missing or wrong token; send Authorization: Bearer <token from $LFG_HOME/auth-token>")
        }
        if let refusal = WriteRule.refusal(request, authorization) { return refusal }
        if path == ["api", "login-links"] { return loginLink(request, authorization) }
        if path.starts(with: ["api", "accounts"]) { return await accountRoute(request, Array(path.dropFirst(2)), authorization) }
        if path == ["metrics"] {
            guard request.method == "GET" else { return Self.methodNotAllowed(["GET"]) }
            // The install's figures, every account's pushes included: the operator's.
            guard authorization.isOwner else { return .error(403, "metrics are the install owner's (token or dashboard)") }
            return await metrics()
        }
        var allowed: [String] = []
        for route in tenant.routes {
            guard let parameters = route.match(path) else { continue }
            guard route.method == request.method else {
                allowed.append(route.method)
                continue
            }
            for (name, value) in zip(route.parameterNames, parameters) {
                if let problem = IdentifierRule.problem(value) { return .error(400, problem, field: name) }
            }
            if case .device(let record, _) = authorization {
                if let refusal = DeviceAccess.refusal(route, parameters, request, record) { return refusal }
                // Tagged, so revoking the credential ends the device's open stream at once.
                if route.template == "GET /api/events" {
                    return Self.eventStream(tenant.service.events.subscribe(tag: record.id.rawValue))
                }
            }
            return await route.handler(request, parameters)
        }
        if !allowed.isEmpty { return Self.methodNotAllowed(allowed) }
        if let dashboard, path.first != "api" {
            guard authorization.isOwner else {
                return .error(403, "the dashboard is the install owner's; a paired device or an account's token cannot open it")
            }
            return await dashboard.respond(to: request)
        }
        return .error(404, "no such route: \(request.method) \(request.path)")
    }

    /// The path's segments, each percent-decoded strictly from the path as sent (so `%2F` stays inside
    /// its segment); nil when a segment is not valid percent-encoded UTF-8.
    static func pathSegments(_ request: HTTPRequest) -> [String]? {
        guard let raw = request.rawPath else { return request.pathComponents }
        var segments: [String] = []
        // Split on the byte: splitting on the Character "/" walks grapheme clusters (2% of the server's
        // time under ingest load, bench/ingest.sh).
        for segment in raw.utf8.split(separator: UInt8(ascii: "/")) {
            guard let decoded = IdentifierRule.percentDecoded(Substring(segment)) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var response = HTTPResponse.error(405, "method not allowed here; use \(allowed.joined(separator: " or "))")
        response.headers.append(("Allow", allowed.joined(separator: ", ")))
        return response
    }
}

/// One route: a method, a path pattern (`{sid}` marks a parameter named for error messages; `{}` one
/// named `id`) and its handler. Every parameter must pass `IdentifierRule` before the handler runs.
struct Route: Sendable {
    let method: String
    let pattern: [String]
    /// `METHOD /path/pattern`, as ``DeviceAccess`` lists routes.
    let template: String
    /// The parameters' names, in order.
    let parameterNames: [String]
    let handler: @Sendable (HTTPRequest, [String]) async -> HTTPResponse

    init(_ method: String, _ path: String, _ handler: @escaping @Sendable (HTTPRequest, [String]) async -> HTTPResponse) {
        self.method = method
        self.pattern = path.split(separator: "/").map(String.init)
        self.template = method + " " + path
        self.parameterNames = pattern.filter(Self.isParameter).map { $0 == "{}" ? "id" : String($0.dropFirst().dropLast()) }
        self.handler = handler
    }

    static func isParameter(_ part: String) -> Bool { part.hasPrefix("{") && part.hasSuffix("}") }

    /// The parameters when `path` matches, else nil.
    func match(_ path: [String]) -> [String]? {
        guard path.count == pattern.count else { return nil }
        var parameters: [String] = []
        for (part, expected) in zip(path, pattern) {
            if Self.isParameter(expected) {
                guard !part.isEmpty else { return nil }
                parameters.append(part)
            } else if part != expected {
                return nil
            }
        }
        return parameters
    }
}

extension HTTPResponse {
    /// The response for a refused service call.
    static func failure(_ error: ServiceError) -> HTTPResponse {
        switch error {
        case .notFound(let message): .error(404, message)
        case .invalid(let input): .error(400, input.message, field: input.field)
        case .store(let store): .error(500, "\(store); nothing was changed, retry")
        }
    }

    static func badRequest(_ input: InputError) -> HTTPResponse { .error(400, input.message, field: input.field) }
}
