import ControlPlane
import ES256OpenSSL
import Foundation
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

    @Test("Two servers on one home: the second cannot take the watcher lock and stays silent", .timeLimit(.minutes(1)))
    func lockKeepsSecondServerSilent() async throws {
        let home = try makeTemporaryDirectory()
        let pushes = try MockPushes()
        defer { pushes.server.stop() }
        let firstPort = freePort()
        let first = try await ServeProcess.start(
            port: firstPort, environment: try Self.environment(home: home, pushPort: firstPort, apnsURL: pushes.server.baseURL))
        defer { first.stop(SIGTERM) }
        let secondPort = freePort()
        // Even claiming the push port as its own, it cannot push: the lock is what protects the phone.
        let second = try await ServeProcess.start(
            port: secondPort, environment: try Self.environment(home: home, pushPort: secondPort, apnsURL: pushes.server.baseURL))
        defer { second.stop(SIGTERM) }
        #expect(first.printed.contains("live activities: pushing"))
        let (_, state) = try await second.call("GET", "/api/push/live-activity/state", token: Self.token)
        #expect(state["enabled"] as? Bool == false)
        #expect((state["reason"] as? String)?.contains("watcher lock") == true)
    }
}
