import AsyncTesting
import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Testing

@Suite struct APIBehaviourTests {
    @Test("Sessions are replaced, merge-patched, listed with their display state and deleted")
    func sessionLifecycle() async throws {
        let harness = try await ServiceHarness()
        let put = await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true,"prompt":{"kind":"question","text":"?"}}"#)
        #expect(put.status == 200)
        #expect(put.json["displayState"] as? String == "needsInput")
        let patched = await harness.call("PATCH", "/api/sessions/s1", #"{"prompt":null,"step":"compiling"}"#)
        #expect(patched.json["displayState"] as? String == "working")
        #expect(patched.json["title"] as? String == "Build")
        #expect(patched.json["step"] as? String == "compiling")
        await harness.call("PUT", "/api/sessions/old", #"{"archived":true}"#)
        let listed = await harness.call("GET", "/api/sessions").json["sessions"] as? [[String: Any]]
        #expect(listed?.map { $0["sid"] as? String } == ["s1"])
        #expect(await harness.call("DELETE", "/api/sessions/s1").status == 200)
        #expect((await harness.call("GET", "/api/sessions").json["sessions"] as? [Any])?.isEmpty == true)
    }

    @Test("A host silent past its TTL makes its sessions read unknown")
    func hostHeartbeat() async throws {
        let harness = try await ServiceHarness()
        #expect(await harness.call("PUT", "/api/hosts/mac", #"{"ttlSeconds":30}"#).status == 200)
        await harness.call("PUT", "/api/sessions/s1", #"{"host":"mac","busy":true}"#)
        harness.time.advance(31)
        let listed = await harness.call("GET", "/api/sessions").json["sessions"] as? [[String: Any]]
        #expect(listed?.first?["displayState"] as? String == "unknown")
    }

    @Test("Tokens register per device (legacy 'default' without one) and are only ever shown as 8 hex")
    func tokenRegistration() async throws {
        let harness = try await ServiceHarness()
        let upper = hexA.uppercased()
        #expect(await harness.call("POST", "/api/push/live-activity/start-token", #"{"token":"\#(upper)","env":"sandbox"}"#).status == 200)
        await harness.call("PUT", "/api/devices/phone", #"{"env":"production","pushToStartToken":"\#(hexB)","hiddenDirs":["/x"]}"#)
        let tokens = await harness.call("GET", "/api/push/live-activity/tokens")
        let listed = tokens.json["tokens"] as? [[String: Any]]
        #expect(listed?.map { $0["deviceId"] as? String } == ["default", "phone"])
        #expect(listed?.map { $0["token"] as? String } == ["aaaaaaaa", "bbbbbbbb"])
        #expect(listed?.map { $0["kind"] as? String } == ["pushToStart", "pushToStart"])
        let state = await harness.call("GET", "/api/push/live-activity/state")
        #expect(!state.text.contains(hexA) && !tokens.text.contains(hexA) && !state.text.contains(hexB))
        let devices = state.json["devices"] as? [[String: Any]]
        #expect(devices?.count == 2)
        #expect(devices?.last?["env"] as? String == "production")
        #expect((devices?.first?["tokens"] as? [String: Int]) == ["pushToStart": 1, "update": 0])
        #expect(state.json["enabled"] as? Bool == true)
    }

    @Test("A report leads to a start push, logged as decide and send, readable through /api/log")
    func reportToPush() async throws {
        let harness = try await ServiceHarness()
        await harness.call("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox"}"#)
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true}"#)
        await harness.service.tick()
        #expect(harness.gateway.delivered.map(\.action) == [.start])
        #expect(harness.log.all.map(\.event) == [.decide, .send])
        let lines = await harness.call("GET", "/api/log", query: ["limit": "1"]).json["lines"] as? [[String: Any]]
        #expect(lines?.first?["event"] as? String == "send")
        #expect(lines?.first?["token"] as? String == "aaaaaaaa")
        let state = await harness.call("GET", "/api/push/live-activity/state").json
        let card = (state["devices"] as? [[String: Any]])?.first?["card"] as? [String: Any]
        #expect((card?["contentState"] as? [String: Any])?["working"] as? Int == 1)
        #expect((card?["since"] as? [String: Any])?.keys.sorted() == ["s1"])
        let history = await harness.call("GET", "/api/push/live-activity/history").json["history"] as? [[String: Any]]
        #expect(history?.first?["origin"] as? String == "pushToStart")
    }

    @Test("/ended forgets the card, records the veto population and persists at once")
    func ended() async throws {
        let harness = try await ServiceHarness()
        await harness.call("POST", "/api/push/live-activity/update-token", #"{"token":"\#(hexA)","env":"sandbox"}"#)
        await harness.call("PUT", "/api/sessions/s1", #"{"busy":true}"#)
        await harness.service.tick()
        #expect(await harness.call("POST", "/api/push/live-activity/ended", "").status == 200)
        let devices = await harness.call("GET", "/api/push/live-activity/state").json["devices"] as? [[String: Any]]
        #expect(devices?.first?["card"] is NSNull)
        #expect(devices?.first?["veto"] as? [String] == ["s1"])
        #expect(try await harness.store.load().devices[.legacy]?.veto == ["s1"])
        #expect(harness.log.all.last?.event == .clientEnded)
    }

    @Test("The login URL sets a session cookie once; the cookie then authorizes")
    func login() async throws {
        let harness = try await ServiceHarness(loginCode: "secret-code")
        let first = await harness.call("GET", "/login", token: nil, query: ["code": "secret-code"])
        #expect(first.status == 303)
        let cookie = try #require(first.response.header("Set-Cookie"))
        #expect(cookie.hasPrefix("lfg_session="))
        let session = String(try #require(cookie.split(separator: ";").first))
        #expect(await harness.call("GET", "/login", token: nil, query: ["code": "secret-code"]).status == 401)
        let withCookie = await harness.call("GET", "/api/sessions", token: nil, headers: ["Cookie": "x=1; \(session)"])
        #expect(withCookie.status == 200)
    }

    @Test("GET /api/events streams session changes and decision-log lines")
    func serverSentEvents() async throws {
        let harness = try await ServiceHarness()
        let reply = await harness.call("GET", "/api/events")
        #expect(reply.response.header("Content-Type") == "text/event-stream")
        guard case .stream(let stream) = reply.response.body else {
            Issue.record("not a stream")
            return
        }
        await harness.call("PUT", "/api/sessions/s1", #"{"busy":true}"#)
        await harness.call("POST", "/api/push/live-activity/ended", "")
        let received = Inbox(draining: stream)
        var frames: [String] = []
        for _ in 0..<3 {
            if let data = try await received.next("the next event frame") { frames.append(String(decoding: data, as: UTF8.self)) }
        }
        try #require(frames.count == 3)
        #expect(frames[0] == ": connected\n\n")
        #expect(frames[1].hasPrefix("event: session\ndata: {"))
        #expect(frames[1].contains("\"sid\":\"s1\""))
        #expect(frames[2].hasPrefix("event: log\ndata: {"))
        #expect(frames[2].contains("client-ended"))
    }
}

@Suite struct DecisionLogFileTests {
    @Test("The decision log file gets one JSON object per line, appended, and its tail reads back")
    func appendsAndTails() async throws {
        let path = try makeTemporaryDirectory() + "/liveactivity.log"
        let log = try DecisionLogFile(path: path)
        await log.append([.noTokens(at: 1, deviceId: "phone", action: .start)])
        await log.append([
            .send(
                at: 2, deviceId: "phone", action: .start, token: "aaaaaaaabbbb", env: .sandbox,
                answer: LoggedAnswer(status: 200, milliseconds: 3)),
            .adopted(at: 3, deviceId: "phone", token: "cccccccc", env: .sandbox),
        ])
        let again = try DecisionLogFile(path: path)
        await again.append([.clientEnded(at: 4, deviceId: "phone", veto: [], hadCard: true)])
        let lines = DecisionLogFile.tail(path: path, limit: 3)
        #expect(lines.count == 3)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["event"] as? String } == ["send", "adopted", "client-ended"])
        #expect(objects.first?["status"] as? Int == 200)
        #expect(objects.allSatisfy { $0["deviceId"] as? String == "phone" && $0["ts"] is Double })
    }
}
