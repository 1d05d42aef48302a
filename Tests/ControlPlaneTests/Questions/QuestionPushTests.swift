import APNs
import APNsHTTP2
import APNsMock
import ControlPlane
import ES256OpenSSL
import FleetCore
import Foundation
import Testing

/// Question alerts and withdrawals (contract 8.2), and pruning dead alert tokens (seed 002).
@Suite(.timeLimit(.minutes(1))) struct QuestionPushTests {
    @Test("A new question alerts every device's apnsToken with the contract's headers and body")
    func alert() async throws {
        let harness = try await QuestionHarness()
        await harness.registerPhone("phone-a", token: hexA)
        await harness.registerPhone("phone-b", token: hexB)
        await harness.call("PUT", "/api/devices/no-token", #"{"env":"sandbox"}"#)
        await harness.ask("s1", id: "q1", kind: "question", options: ["Red", "Blue"])
        await harness.service.sendQuestionPushes()
        let requests = harness.requests
        #expect(Set(requests.compactMap { $0.token?.hex }) == [hexA, hexB])
        let request = try #require(requests.first)
        #expect(request.headers.map(\.description) == [
            "apns-push-type: alert", "apns-topic: com.example.lfg", "apns-priority: 10",
            "apns-expiration: \(Int(1_000 + QuestionBook.defaultLifetime))", "apns-collapse-id: q1",
        ])
        let body = request.json
        let aps = try #require(body["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == ["title": "Build", "body": "Bash: make"])
        #expect(aps["category"] as? String == "LFG_QUESTION_CHOICE")
        #expect(aps["interruption-level"] as? String == "time-sensitive")
        #expect(aps["thread-id"] as? String == "s1")
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(body["questionId"] as? String == "q1")
        #expect(body["sid"] as? String == "s1")
        #expect(body["kind"] as? String == "choice")
        #expect(body["options"] as? [String] == ["Red", "Blue"])
        let alerts = harness.log.all.filter { $0.event == .alert }
        #expect(alerts.map(\.deviceId).sorted() == ["phone-a", "phone-b"])
        #expect(alerts.allSatisfy { $0.fields[.token] == .string(String(repeating: "a", count: 8))
            || $0.fields[.token] == .string(String(repeating: "b", count: 8)) })
    }

    @Test("Each kind has its category", arguments: [
        ("permission", nil, "LFG_QUESTION_CONFIRM"), ("plan", nil, "LFG_QUESTION_CONFIRM"),
        ("question", ["A"], "LFG_QUESTION_CHOICE"), ("question", nil, "LFG_QUESTION_TEXT"),
    ] as [(String, [String]?, String)])
    func categories(kind: String, options: [String]?, category: String) async throws {
        let harness = try await QuestionHarness()
        await harness.registerPhone("phone", token: hexA)
        await harness.ask("s1", id: "q1", kind: kind, options: options)
        await harness.service.sendQuestionPushes()
        let aps = try #require(harness.requests.first?.json["aps"] as? [String: Any])
        #expect(aps["category"] as? String == category)
    }

    @Test("A question that stops being pending sends the background withdrawal to every device")
    func withdrawal() async throws {
        let harness = try await QuestionHarness()
        await harness.registerPhone("phone", token: hexA)
        await harness.ask("s1", id: "q1")
        await harness.service.sendQuestionPushes()
        #expect(await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Deny"}"#).status == 200)
        await harness.service.sendQuestionPushes()
        let request = try #require(harness.requests.last)
        #expect(request.headers.map(\.description) == [
            "apns-push-type: background", "apns-topic: com.example.lfg", "apns-priority: 5", "apns-collapse-id: q1",
        ])
        let body = request.json
        #expect(body["aps"] as? [String: Int] == ["content-available": 1])
        #expect(body["event"] as? String == "question.updated")
        #expect(body["questionId"] as? String == "q1")
        #expect(harness.requests.count == 2)
    }

    @Test("An alert token answered 410 or 400 BadDeviceToken is pruned, logged, and not used again", arguments: [
        (410, "Unregistered"), (400, "BadDeviceToken"),
    ])
    func pruning(status: Int, reason: String) async throws {
        let sender = RecordingPushSender([hexA: (status, reason)])
        let harness = try await QuestionHarness(sender: sender)
        await harness.registerPhone("dead", token: hexA)
        await harness.registerPhone("live", token: hexB)
        await harness.ask("s1", id: "q1")
        await harness.service.sendQuestionPushes()
        let pruned = harness.log.all.filter { $0.event == .tokenPruned }
        #expect(pruned.map(\.deviceId) == ["dead"])
        #expect(pruned.first?.fields[.kind] == .string("apns"))
        let stored = try await harness.store.load()
        #expect(stored.devices["dead"]?.profile.apnsToken == nil)
        #expect(stored.devices["live"]?.profile.apnsToken == hexB)
        await harness.ask("s2", id: "q2")
        await harness.service.sendQuestionPushes()
        #expect(harness.requests.filter { $0.token?.hex == hexA }.count == 1)
        #expect(harness.requests.filter { $0.token?.hex == hexB }.count == 2)
    }

    @Test("A token re-registered while the dead one's answer was out is kept")
    func reRegisteredTokenKept() async throws {
        let sender = RecordingPushSender([hexA: (410, "Unregistered")])
        let harness = try await QuestionHarness(sender: sender)
        await harness.registerPhone("phone", token: hexA)
        await harness.ask("s1", id: "q1")
        await harness.registerPhone("phone", token: hexB)
        await harness.service.sendQuestionPushes()
        #expect(try await harness.store.load().devices["phone"]?.profile.apnsToken == hexB)
    }

    @Test("Over real HTTP/2, the APNs stand-in receives the alert and the withdrawal as the contract says")
    func overHTTP2() async throws {
        let mock = try APNsMockServer(bundleID: BundleID("com.example.lfg"))
        defer { mock.stop() }
        let endpoint = try Endpoint(url: mock.baseURL)
        let key = try OpenSSLSigningKey.generateP256()
        let sender = try HTTP2PushSender(
            options: .init(endpoints: [.sandbox: endpoint, .production: endpoint]),
            tokens: ProviderTokenCache(keyID: "KEY1234567", teamID: "TEAM123456", key: key, clock: .system))
        defer { sender.shutdown() }
        let harness = try await QuestionHarness(sender: sender)
        await harness.registerPhone("phone", token: hexA)
        await harness.ask("s1", id: "q1")
        await harness.service.sendQuestionPushes()
        #expect(await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Allow","deviceId":"phone"}"#).status == 200)
        await harness.service.sendQuestionPushes()
        let records = mock.state.records(for: hexA)
        #expect(records.map(\.status) == [200, 200])
        #expect(records.map(\.pushType) == ["alert", "background"])
        #expect(records.map { $0.headers["apns-collapse-id"] } == ["q1", "q1"])
        #expect(records.map { $0.headers["apns-priority"] } == ["10", "5"])
        #expect(records.first?.headers["apns-expiration"] == "\(Int(1_000 + QuestionBook.defaultLifetime))")
        let alert = try #require(records.first?.bodyJSON as? [String: Any])
        #expect((alert["aps"] as? [String: Any])?["category"] as? String == "LFG_QUESTION_CONFIRM")
        #expect(alert["options"] as? [String] == ["Allow", "Deny"])
        let withdrawal = try #require(records.last?.bodyJSON as? [String: Any])
        #expect(withdrawal["event"] as? String == "question.updated")
        #expect(harness.log.all.filter { $0.event == .alert }.map { $0.fields[.status] } == [.integer(200), .integer(200)])
    }
}
