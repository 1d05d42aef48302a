import ControlPlane
import FleetCore
import Foundation
import HTTPTypes

/// What the dashboard reads from the control plane. `ControlPlaneService` is the live one; tests use a fixed one.
public protocol DashboardSource: Sendable {
    func liveActivityState() async -> LiveActivityState
    func sessions() async -> [SessionListing]
    func tokenListings() async -> [TokenListing]
    /// The questions still pending.
    func pendingQuestions() async -> [Question]
}

extension ControlPlaneService: DashboardSource {
    public func pendingQuestions() async -> [Question] { questionList(state: .pending) }
}

/// The dashboard's routes: the page at `/` (with `/dashboard.css` and `/dashboard.js`) and the
/// server-computed `/dashboard/snapshot`. Plug it into `APIRouter(dashboard:)`, which checks auth first;
/// the page's live parts use the API's own `/api/log` and `/api/events`.
public struct DashboardRoutes: HTTPHandler {
    let source: any DashboardSource
    let now: @Sendable () -> UnixTime

    /// - Parameter now: the wall clock, Unix seconds (elapsed labels and token ages are computed against it).
    public init(source: any DashboardSource, now: @escaping @Sendable () -> UnixTime) {
        self.source = source
        self.now = now
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let asset: (type: String, body: String)?
        switch request.path {
        case "/", "/index.html": asset = ("text/html; charset=utf-8", DashboardPage.html)
        case "/dashboard.css": asset = ("text/css; charset=utf-8", DashboardStyle.css)
        case "/dashboard.js": asset = ("text/javascript; charset=utf-8", DashboardScript.javaScript)
        case "/dashboard/snapshot": asset = nil
        default: return .error(404, "no such page: \(request.path); the dashboard is at /")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.error(405, "method not allowed here; use GET")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        if let asset {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", asset.type)] + Self.pageHeaders, body: .bytes(Data(asset.body.utf8)))
        }
        var response = HTTPResponse.json(await snapshot())
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }

    /// The snapshot the page draws, as of now.
    public func snapshot() async -> DashboardSnapshot {
        async let state = source.liveActivityState()
        async let sessions = source.sessions()
        async let tokens = source.tokenListings()
        async let questions = source.pendingQuestions()
        return DashboardSnapshot(
            state: await state, sessions: await sessions, tokens: await tokens, questions: await questions, now: now())
    }

    /// No caching, no third-party anything: the page loads only from this server.
    static let pageHeaders: [(name: String, value: String)] = [
        ("Cache-Control", "no-store"),
        ("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
