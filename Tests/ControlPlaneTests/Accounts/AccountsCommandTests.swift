import ControlPlane
import Foundation
import HTTPClient
import Testing

/// `lfg accounts create|list|revoke` against a real `lfg serve` on SQLite, across a restart.
@Suite(.serialized) struct AccountsCommandTests {
    static let token = "accounts-test-token"

    static func call(_ method: String, _ url: String, token: String, body: String = "") async throws -> (
        status: Int, text: String
    ) {
        var headers = [(name: "Authorization", value: "Bearer \(token)")]
        if !body.isEmpty { headers.append((name: "Content-Type", value: "application/json")) }
        let response = try await HTTPClient().send(
            HTTPClientRequest(method: method, url: url, headers: headers, body: Data(body.utf8)))
        return (response.status, response.text)
    }

    @Test(
        "create prints a token that reaches only its account, across a restart; list hides it; revoke gives 401",
        .timeLimit(.minutes(1)))
    func createListRevoke() async throws {
        let home = try makeTemporaryDirectory()
        let port = freePort()
        let base = "http://127.0.0.1:\(port)"
        let environment = ["LFG_HOME": home, "LFG_AUTH_TOKEN": Self.token, "LFG_TICK_MS": "50"]
        var server = try await ServeProcess.start(port: port, environment: environment)
        let created = try ServeProcess.runToExit(
            ["accounts", "create", "ana", "--port", "\(port)"], environment: environment)
        #expect(created.status == 0, "\(created.output)")
        let token = try #require(created.output.split(separator: "\n").map(String.init).first { $0.hasPrefix("lfga.") })
        #expect(
            try await Self.call("PUT", base + "/api/sessions/s1", token: token, body: #"{"title":"Ana's"}"#).status
                == 200)
        #expect(try await Self.call("GET", base + "/api/sessions", token: Self.token).text.contains("Ana's") == false)

        _ = server.stop(SIGTERM)
        server = try await ServeProcess.start(port: port, environment: environment)
        defer { _ = server.stop(SIGTERM) }
        #expect(try await Self.call("GET", base + "/api/sessions", token: token).text.contains("Ana's"))
        var info = stat()
        #expect(stat(home + "/accounts/ana.log", &info) == 0 && info.st_mode & 0o777 == 0o600)

        let list = try ServeProcess.runToExit(["accounts", "list", "--port", "\(port)"], environment: environment)
        #expect(
            list.status == 0 && list.output.contains("ana  lfga.") && list.output.contains("active"), "\(list.output)")
        #expect(!list.output.contains(String(token.split(separator: ".")[2])))
        let taken = try ServeProcess.runToExit(
            ["accounts", "create", "ana", "--port", "\(port)"], environment: environment)
        #expect(taken.status != 0 && taken.output.contains("exists"), "\(taken.output)")
        let revoke = try ServeProcess.runToExit(
            ["accounts", "revoke", "ana", "--port", "\(port)"], environment: environment)
        #expect(revoke.status == 0, "\(revoke.output)")
        #expect(try await Self.call("GET", base + "/api/sessions", token: token).status == 401)
        let after = try ServeProcess.runToExit(["accounts", "list", "--port", "\(port)"], environment: environment)
        #expect(after.output.contains("revoked"), "\(after.output)")
    }
}
