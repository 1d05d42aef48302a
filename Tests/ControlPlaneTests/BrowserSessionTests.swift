import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The dashboard's browser session: a random, expiring, revocable cookie that is never the token, and
/// writes that need JSON and, on the cookie alone, the anti-forgery header.
@Suite struct BrowserSessionTests {
    final class Clock: Sendable {
        let value = Mutex<UnixTime>(1_000_000)
        func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
    }

    struct Browser {
        let router: APIRouter
        var cookies: [String: String] = [:]

        mutating func send(
            _ method: String, _ path: String, query: [String: String] = [:], body: String = "",
            headers: [String: String] = [:]
        ) async -> HTTPResponse {
            var all = headers
            if !cookies.isEmpty { all["Cookie"] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            let response = await router.respond(to: HTTPRequest(
                method: method, path: path, query: query, headers: all, body: Data(body.utf8)))
            for (name, value) in response.headers where name == "Set-Cookie" {
                let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                cookies[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
            }
            return response
        }
    }

    static func makeBrowser(clock: Clock = Clock()) async throws -> (ServiceHarness, Browser) {
        let harness = try await ServiceHarness()
        let authenticator = Authenticator(token: ServiceHarness.token, loginCode: "first-code") {
            clock.value.withLock { $0 }
        }
        return (harness, Browser(router: APIRouter(service: harness.service, authenticator: authenticator)))
    }

    @Test("A login link starts a session whose cookie is random, HttpOnly and expiring, never the token")
    func loginSetsSessionCookie() async throws {
        var (_, browser) = try await Self.makeBrowser()
        let response = await browser.send("GET", "/login", query: ["code": "first-code"])
        #expect(response.status == 303)
        let setCookies = response.headers.filter { $0.name == "Set-Cookie" }.map(\.value)
        let session = try #require(setCookies.first { $0.hasPrefix(Authenticator.cookieName + "=") })
        #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict") && session.contains("Max-Age=43200"))
        #expect(!session.contains(ServiceHarness.token))
        #expect(await browser.send("GET", "/api/sessions").status == 200)
        // The link works once, and the token itself is no cookie.
        #expect(await browser.send("GET", "/login", query: ["code": "first-code"]).status == 401)
        var impostor = Browser(router: browser.router, cookies: ["lfg_auth": ServiceHarness.token, "lfg_session": ServiceHarness.token])
        #expect(await impostor.send("GET", "/api/sessions").status == 401)
    }

    @Test("A session expires after 12 hours and ends at logout")
    func sessionExpiresAndIsRevocable() async throws {
        let clock = Clock()
        var (_, browser) = try await Self.makeBrowser(clock: clock)
        _ = await browser.send("GET", "/login", query: ["code": "first-code"])
        clock.advance(Authenticator.sessionLifetime + 1)
        #expect(await browser.send("GET", "/api/sessions").status == 401)
        let code = try #require(await browser.send(
            "POST", "/api/login-links", headers: ["Authorization": "Bearer \(ServiceHarness.token)"]).bodyData)
        let path = try #require((try JSONSerialization.jsonObject(with: code) as? [String: Any])?["path"] as? String)
        let query = String(try #require(path.split(separator: "=", maxSplits: 1).last))
        #expect(await browser.send("GET", "/login", query: ["code": query]).status == 303)
        #expect(await browser.send("GET", "/api/sessions").status == 200)
        #expect(await browser.send("POST", "/logout").status == 200)
        #expect(await browser.send("GET", "/api/sessions").status == 401)
    }

    @Test("A cookie-only write without the anti-forgery header is refused and changes nothing")
    func cookieOnlyWriteNeedsCSRFHeader() async throws {
        var (harness, browser) = try await Self.makeBrowser()
        _ = await browser.send("GET", "/login", query: ["code": "first-code"])
        let before = await harness.observable()
        let json = ["Content-Type": "application/json"]
        let forged = await browser.send("PUT", "/api/sessions/s1", body: #"{"title":"forged"}"#, headers: json)
        #expect(forged.status == 403)
        #expect(await harness.observable() == before)
        let csrf = try #require(browser.cookies[Authenticator.csrfCookieName])
        let allowed = await browser.send(
            "PUT", "/api/sessions/s1", body: #"{"title":"mine"}"#, headers: json.merging([Authenticator.csrfHeader: csrf]) { $1 })
        #expect(allowed.status == 200)
    }

    @Test("A write whose body is not declared JSON is a 415 and changes nothing, even with the token")
    func writesNeedJSONContentType() async throws {
        let harness = try await ServiceHarness()
        let before = await harness.observable()
        for type in [nil, "text/plain", "application/x-www-form-urlencoded"] as [String?] {
            var headers = ["Authorization": "Bearer \(ServiceHarness.token)"]
            headers["Content-Type"] = type
            let response = await harness.router.respond(to: HTTPRequest(
                method: "PUT", path: "/api/sessions/s1", headers: headers, body: Data(#"{"title":"x"}"#.utf8)))
            #expect(response.status == 415, "\(type ?? "none")")
        }
        #expect(await harness.observable() == before)
    }

    @Test("A JSON media type is read case-insensitively, before its parameters; a longer or shorter name is a 415")
    func jsonMediaTypeIsCaseInsensitive() async throws {
        let harness = try await ServiceHarness()
        let cases: [(String, Int)] = [
            ("Application/JSON; charset=utf-8", 200), (" application/merge-patch+json ", 200), ("APPLICATION/JSON", 200),
            ("application/jsonx", 415), ("application/jso", 415), ("application/json5; charset=utf-8", 415),
        ]
        for (type, status) in cases {
            let response = await harness.router.respond(to: HTTPRequest(
                method: "PUT", path: "/api/sessions/s1",
                headers: ["Authorization": "Bearer \(ServiceHarness.token)", "Content-Type": type],
                body: Data(#"{"title":"x"}"#.utf8)))
            #expect(response.status == status, "\(type)")
            if status == 415 {
                #expect(response.bodyData.map { String(decoding: $0, as: UTF8.self) }?.contains("'\(type.lowercased().split(separator: ";")[0].trimmingCharacters(in: .whitespaces))'") == true)
            }
        }
    }

    @Test("Login links are minted with the bearer token only")
    func loginLinksNeedBearer() async throws {
        var (_, browser) = try await Self.makeBrowser()
        _ = await browser.send("GET", "/login", query: ["code": "first-code"])
        let csrf = try #require(browser.cookies[Authenticator.csrfCookieName])
        #expect(await browser.send("POST", "/api/login-links", headers: [Authenticator.csrfHeader: csrf]).status == 403)
    }
}
