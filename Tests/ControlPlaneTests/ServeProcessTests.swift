import ControlPlane
import ES256OpenSSL
import Foundation
import HTTPClient
import Testing

/// `lfg serve` as a real child process with a temporary LFG_HOME and a local APNs stand-in.
@Suite(.serialized) struct ServeProcessTests {
    static let token = "process-test-token"

    static func environment(home: String, pushPort: Int, apnsURL: String) throws -> [String: String] {
        let key = try OpenSSLSigningKey.generateP256()
        let keyFile = home + "/key.p8"
        try key.privateKeyPEM().write(toFile: keyFile, atomically: true, encoding: .utf8)
        return [
            "LFG_HOME": home, "LFG_AUTH_TOKEN": token, "LFG_LIVE_ACTIVITIES": "1", "LFG_APNS_KEY_FILE": keyFile,
            "LFG_APNS_KEY_ID": "KEY1234567", "LFG_APNS_TEAM_ID": "TEAM123456", "LFG_APNS_BUNDLE_ID": "com.example.lfg",
            // Both envs point at the stand-in: APNsHTTP2 speaks TLS to every endpoint once any is https.
            "LFG_APNS_SANDBOX_URL": apnsURL, "LFG_APNS_PRODUCTION_URL": apnsURL, "LFG_PUSH_PORT": "\(pushPort)", "LFG_TICK_MS": "50",
        ]
    }

    @Test(
        "After a restart or a kill -9 nothing is lost and no duplicate start is sent",
        .timeLimit(.minutes(2)), arguments: [SIGTERM, SIGKILL])
    func survivesRestart(signal: Int32) async throws {
        let home = try makeTemporaryDirectory()
        let pushes = try MockPushes()
        defer { pushes.server.stop() }
        let port = freePort()
        let environment = try Self.environment(home: home, pushPort: port, apnsURL: pushes.server.baseURL)

        let first = try await ServeProcess.start(port: port, environment: environment)
        #expect(first.printed.contains("live activities: pushing"))
        _ = try await first.call("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox","deviceId":"phone"}"#, token: Self.token)
        _ = try await first.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true}"#, token: Self.token)
        let start = try await pushes.next()
        #expect(start?.event == "start")
        #expect(start?.token == hexA)
        _ = try await first.call("POST", "/api/push/live-activity/update-token", #"{"token":"\#(hexB)","env":"sandbox","deviceId":"phone"}"#, token: Self.token)
        let adopted = try await pushes.next()
        #expect(adopted?.event == "update")
        #expect(adopted?.token == hexB)
        first.stop(signal)

        let second = try await ServeProcess.start(port: port, environment: environment)
        defer { second.stop(SIGTERM) }
        let (_, state) = try await second.call("GET", "/api/push/live-activity/state", token: Self.token)
        let device = (state["devices"] as? [[String: Any]])?.first
        #expect(device?["deviceId"] as? String == "phone")
        #expect(device?["tokens"] as? [String: Int] == ["pushToStart": 1, "update": 1])
        // The card survives; its content may be unknown (nil) when the kill came before the update's
        // answer was recorded, which only means the restarted server re-sends an update.
        let card = try #require(device?["card"] as? [String: Any])
        #expect((card["since"] as? [String: Any])?.keys.sorted() == ["s1"])
        let (_, sessions) = try await second.call("GET", "/api/sessions", token: Self.token)
        #expect((sessions["sessions"] as? [[String: Any]])?.map { $0["sid"] as? String } == ["s1"])
        let (_, history) = try await second.call("GET", "/api/push/live-activity/history", token: Self.token)
        let records = try #require(history["history"] as? [[String: Any]])
        #expect(records.count == 1)
        #expect(records.first?["endedAt"] == nil)

        // The next push after the restart is an update of the existing card, never a second start.
        _ = try await second.call("PUT", "/api/sessions/s2", #"{"title":"Test","busy":true}"#, token: Self.token)
        let next = try await pushes.next()
        #expect(next?.event == "update")
        #expect(next?.token == hexB)
    }

    @Test("Two servers on one home: the second refuses to start, and a killed holder's home is taken by the next",
          .timeLimit(.minutes(1)))
    func oneServerPerHome() async throws {
        let home = try makeTemporaryDirectory()
        let pushes = try MockPushes()
        defer { pushes.server.stop() }
        let firstPort = freePort()
        let environment = try Self.environment(home: home, pushPort: firstPort, apnsURL: pushes.server.baseURL)
        let first = try await ServeProcess.start(port: firstPort, environment: environment)
        #expect(first.printed.contains("live activities: pushing"))
        _ = try await first.call("PUT", "/api/sessions/s1", #"{"title":"Build"}"#, token: Self.token)

        // Even on another port, a second server on the same home would answer from its own memory.
        let second = try ServeProcess.runToExit(["serve", "--port", "\(freePort())"], environment: environment)
        #expect(second.status != 0)
        #expect(second.output.contains("another lfg serve is running on \(home)"), "\(second.output)")

        first.stop(SIGKILL)  // the kernel releases a dead holder's flock
        let third = try await ServeProcess.start(port: firstPort, environment: environment)
        defer { third.stop(SIGTERM) }
        #expect(third.printed.contains("live activities: pushing"))
        let (_, sessions) = try await third.call("GET", "/api/sessions", token: Self.token)
        #expect((sessions["sessions"] as? [[String: Any]])?.map { $0["sid"] as? String } == ["s1"])
    }

    @Test("lfg login-link asks the running server for a fresh one-time login URL, without a restart",
          .timeLimit(.minutes(1)))
    func loginLinkWithoutRestart() async throws {
        let home = try makeTemporaryDirectory()
        let port = freePort()
        let environment = ["LFG_HOME": home, "LFG_AUTH_TOKEN": Self.token, "LFG_TICK_MS": "50"]
        let server = try await ServeProcess.start(port: port, environment: environment)
        defer { server.stop(SIGTERM) }
        let link = try ServeProcess.runToExit(["login-link", "--port", "\(port)"], environment: environment)
        #expect(link.status == 0, "\(link.output)")
        let url = link.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:\(port)/login?code="))
        let first = try await HTTPClient().send(HTTPClientRequest(url: url))
        #expect(first.status == 303)
        #expect(first.headers.contains { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("lfg_session=") })
        #expect(try await HTTPClient().send(HTTPClientRequest(url: url)).status == 401)
    }

    @Test("Data files are 0600, existing ones too, and a home readable by others is warned about",
          .timeLimit(.minutes(1)))
    func dataFilesArePrivate() async throws {
        let home = try makeTemporaryDirectory()
        chmod(home, 0o755)
        for name in ["lfg.sqlite", "liveactivity.log"] {
            #expect(FileManager.default.createFile(atPath: home + "/" + name, contents: nil, attributes: [.posixPermissions: 0o644]))
        }
        let port = freePort()
        let server = try await ServeProcess.start(
            port: port, environment: ["LFG_HOME": home, "LFG_AUTH_TOKEN": Self.token, "LFG_TICK_MS": "50"])
        defer { server.stop(SIGTERM) }
        #expect(server.printed.contains("\(home) is readable by other users"))
        _ = try await server.call("PUT", "/api/sessions/s1", #"{"title":"Build"}"#, token: Self.token)
        // No lfg.sqlite-shm: lfg serve keeps SQLite's WAL index in memory (exclusive locking mode); if it
        // ever appears, restrictModes covers it as well.
        for name in ["lfg.sqlite", "lfg.sqlite-wal", "liveactivity.log", "watcher.lock"] {
            var info = stat()
            #expect(stat(home + "/" + name, &info) == 0, "\(name) exists")
            #expect(info.st_mode & 0o777 == 0o600, "\(name) is \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
