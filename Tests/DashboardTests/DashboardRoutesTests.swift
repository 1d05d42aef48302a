import ControlPlane
import Dashboard
import Foundation
import HTTPTypes
import Testing

@Suite struct DashboardRoutesTests {
    let routes = DashboardRoutes(source: FixedSource.busyPhone(), now: { FixedSource.now })

    @Test("The page, its stylesheet and script are served with a policy that loads nothing from elsewhere")
    func servesPage() async throws {
        for (path, type) in [("/", "text/html"), ("/dashboard.css", "text/css"), ("/dashboard.js", "text/javascript")] {
            let response = await routes.respond(to: HTTPRequest(method: "GET", path: path))
            #expect(response.status == 200)
            #expect(response.header("content-type")?.hasPrefix(type) == true)
            #expect(response.header("content-security-policy")?.contains("default-src 'self'") == true)
            let body = String(decoding: try #require(response.bodyData), as: UTF8.self)
            #expect(!body.contains("http://") && !body.contains("https://"), "\(path) must not load external resources")
        }
    }

    @Test("The snapshot route answers the server-computed surfaces as JSON")
    func servesSnapshot() async throws {
        let response = await routes.respond(to: HTTPRequest(method: "GET", path: "/dashboard/snapshot"))
        #expect(response.status == 200)
        let object = try JSONSerialization.jsonObject(with: try #require(response.bodyData)) as? [String: Any]
        let devices = try #require(object?["devices"] as? [[String: Any]])
        #expect(devices.map { $0["deviceId"] as? String } == ["phone", "ipad"])
        #expect(object?["generatedAt"] as? Double == FixedSource.now)
    }

    @Test("Other methods get 405 and other paths 404")
    func refusesTheRest() async {
        #expect(await routes.respond(to: HTTPRequest(method: "POST", path: "/")).status == 405)
        #expect(await routes.respond(to: HTTPRequest(method: "GET", path: "/nope")).status == 404)
    }

    @Test("Behind the API router, the page needs the same auth as the API")
    func pageNeedsAuth() async throws {
        let service = ControlPlaneService(
            .init(store: InMemoryStore(), gateway: UnusedGateway(), decisionLog: InMemoryDecisionLog()))
        let router = APIRouter(
            service: service, authenticator: Authenticator(token: "secret", loginCode: nil),
            dashboard: DashboardRoutes(source: service, now: { FixedSource.now }))
        #expect(await router.respond(to: HTTPRequest(method: "GET", path: "/")).status == 401)
        let authorized = await router.respond(
            to: HTTPRequest(method: "GET", path: "/dashboard/snapshot", headers: ["Authorization": "Bearer secret"]))
        #expect(authorized.status == 200)
    }

    @Test("Without a session, / is the sign-in page (never fleet data), and the API still answers 401")
    func signInPageWithoutSession() async throws {
        let service = ControlPlaneService(
            .init(store: InMemoryStore(), gateway: UnusedGateway(), decisionLog: InMemoryDecisionLog()))
        let router = APIRouter(
            service: service, authenticator: Authenticator(token: "secret", loginCode: nil),
            dashboard: DashboardRoutes(source: service, now: { FixedSource.now }), signInPage: SignInPage())
        let page = await router.respond(to: HTTPRequest(method: "GET", path: "/"))
        #expect(page.status == 200)
        let html = String(decoding: page.bodyData ?? Data(), as: UTF8.self)
        #expect(html.contains("lfg login-link") && html.contains("auth-token"))
        #expect(await router.respond(to: HTTPRequest(method: "GET", path: "/signin.js")).status == 200)
        #expect(await router.respond(to: HTTPRequest(method: "GET", path: "/dashboard/snapshot")).status == 401)
        #expect(await router.respond(to: HTTPRequest(method: "GET", path: "/api/sessions")).status == 401)
        let signIn = await router.respond(to: HTTPRequest(
            method: "POST", path: "/login", headers: ["Content-Type": "application/json"], body: Data(#"{"token":"secret"}"#.utf8)))
        #expect(signIn.status == 200)
        #expect(signIn.headers.contains { $0.name == "Set-Cookie" && $0.value.hasPrefix("lfg_session=") })
    }
}

/// A gateway no test here expects to be called: it fails the test if it is.
struct UnusedGateway: PushGateway {
    func deliver(_ batch: PushBatch) async -> [TokenResult] {
        Issue.record("the dashboard must never push")
        return []
    }
}
