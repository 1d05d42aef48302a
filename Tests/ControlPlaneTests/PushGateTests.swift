import ControlPlane
import FleetCore
import Testing

@Suite struct PushGateTests {
    static func gate(flag: Bool = true, missing: [String] = [], port: Int = 8766, lock: PushGate.LockState = .held) -> PushGate {
        PushGate(isLiveActivitiesOn: flag, missingCredentials: missing, listeningPort: port, pushPort: 8766, lock: lock, home: "/h")
    }

    @Test("Pushing is on only with the flag, complete credentials, the push port and the home's lock")
    func allConditions() {
        #expect(Self.gate().isEnabled())
        #expect(Self.gate(flag: false).reason()?.contains("LFG_LIVE_ACTIVITIES") == true)
        #expect(Self.gate(missing: ["LFG_APNS_KEY_ID"]).reason()?.contains("LFG_APNS_KEY_ID") == true)
        #expect(Self.gate(port: 9000).reason()?.contains("9000") == true)
        #expect(Self.gate(lock: .heldElsewhere).reason()?.contains("lock") == true)
    }

    @Test("push-port-gate: a server on a spare port, or without the lock, stays silent")
    func pushPortGuard() {
        #expect(!Self.gate(port: 9000, lock: .notTried).isEnabled())
        #expect(!Self.gate(lock: .heldElsewhere).isEnabled())
        #expect(!Self.gate(port: 9000).shouldTryLock())
        #expect(Self.gate(port: 9000, lock: .notTried).isEnabled(guards: .without(.pushPortGate)))
        #expect(Self.gate(lock: .heldElsewhere).isEnabled(guards: .without(.pushPortGate)))
    }

    @Test("A closed gate keeps the watcher silent and the state endpoint says why")
    func silentWhenClosed() async throws {
        let harness = try await ServiceHarness(gate: Self.gate(port: 9000, lock: .notTried))
        await harness.call("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox"}"#)
        await harness.call("PUT", "/api/sessions/s1", #"{"busy":true}"#)
        await harness.service.tick()
        #expect(harness.gateway.delivered.isEmpty)
        let state = await harness.call("GET", "/api/push/live-activity/state").json
        #expect(state["enabled"] as? Bool == false)
        #expect((state["reason"] as? String)?.contains("push port") == true)
    }
}

@Suite struct ServerConfigTests {
    @Test("The environment wins over $LFG_HOME/.env, which fills in the rest")
    func precedence() throws {
        let dotEnv = """
            # comment
            export LFG_LIVE_ACTIVITIES=1
            LFG_PUSH_PORT=9000
            LFG_APNS_KEY_ID="KEY123"
            """
        let config = try ServerConfig.load(environment: ["LFG_HOME": "/tmp/h", "LFG_PUSH_PORT": "8800"]) { path in
            path == "/tmp/h/.env" ? dotEnv : nil
        }
        #expect(config.home == "/tmp/h")
        #expect(config.isLiveActivitiesOn)
        #expect(config.pushPort == 8800)
        #expect(config.tickMilliseconds == 2000)
        #expect(config.apns.keyId == "KEY123")
        #expect(config.apns.missingCredentials == ["LFG_APNS_KEY_FILE", "LFG_APNS_TEAM_ID", "LFG_APNS_BUNDLE_ID"])
        #expect(config.apns.sandboxURL == "https://api.sandbox.push.apple.com")
    }

    @Test("A bad number names the variable")
    func badNumber() {
        #expect(throws: ConfigError.self) {
            try ServerConfig.load(environment: ["LFG_HOME": "/tmp/h", "LFG_TICK_MS": "fast"]) { _ in nil }
        }
        do {
            _ = try ServerConfig.load(environment: ["LFG_HOME": "/tmp/h", "LFG_PUSH_PORT": "0"]) { _ in nil }
        } catch {
            #expect(error.variable == "LFG_PUSH_PORT")
        }
    }
}
