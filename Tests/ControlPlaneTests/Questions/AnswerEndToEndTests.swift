import APNsMock
import ControlPlane
import FleetCore
import Foundation
import HTTPClient
import Testing

/// Issue 14's proof: a real `lfg serve`, the APNs stand-in and real `lfg hook` processes. A recorded
/// PermissionRequest goes in, the alert reaches the stand-in, a simulated phone answers through the API,
/// the hook prints Claude Code's decision, and the withdrawal push follows.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AnswerEndToEndTests {
    static let token = ServeProcessTests.token

    /// A recorded PermissionRequest (Claude Code 2.1), session id and command varied per scenario.
    static func permissionRequest(_ sid: String, command: String = "rm -rf .build") -> String {
        #"{"session_id":"\#(sid)","transcript_path":"/Users/dev/.claude/projects/x/\#(sid).jsonl","cwd":"/Users/dev/LFG","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"\#(command)","description":"Remove the build folder"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf .build"}],"behavior":"allow","destination":"localSettings"}]}"#
    }

    static func askUserQuestion(_ sid: String) -> String {
        #"{"session_id":"\#(sid)","cwd":"/Users/dev/LFG","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_01","tool_input":{"questions":[{"question":"Which database?","header":"DB","options":[{"label":"Postgres","description":"server"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}]}}"#
    }

    static func postToolUse(_ sid: String) -> String {
        #"{"session_id":"\#(sid)","cwd":"/Users/dev/LFG","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"toolu_02","tool_input":{"command":"rm -rf .build"},"tool_response":{"stdout":""}}"#
    }

    /// The running world: server, stand-in, phones.
    struct World {
        let serve: ServeProcess
        let pushes: MockPushes
        let hookEnvironment: [String: String]

        func hook(_ payload: String, waitSeconds: Int = 30) throws -> HookProcess {
            var environment = hookEnvironment
            environment["LFG_ANSWER_WAIT_S"] = "\(waitSeconds)"
            return try HookProcess(payload: payload, environment: environment)
        }

        /// The phone's answer through the API: its status and the question as answered.
        func answer(_ id: String, _ answer: String, by deviceId: String) async throws -> (Int, [String: Any]) {
            try await serve.call(
                "POST", "/api/questions/\(id)/answer", #"{"answer":"\#(answer)","deviceId":"\#(deviceId)"}"#, token: token)
        }
    }

    /// The next `count` pushes the stand-in received, sorted by token.
    static func next(_ count: Int, _ pushes: MockPushes) async throws -> [MockRecord] {
        var records: [MockRecord] = []
        while records.count < count, let record = try await pushes.nextRecord() { records.append(record) }
        return records.sorted { $0.token < $1.token }
    }

    /// Checks one question's alerts (one per phone) against contract 8.2; returns the question id.
    static func checkAlerts(_ records: [MockRecord], sid: String, kind: String, category: String) throws -> String {
        #expect(records.map(\.token) == [hexA, hexB])
        let id = try #require(records.first?.headers["apns-collapse-id"])
        for record in records {
            #expect(record.status == 200)
            #expect(record.pushType == "alert")
            #expect(record.topic == "com.example.lfg")
            #expect(record.headers["apns-priority"] == "10")
            #expect(record.headers["apns-collapse-id"] == id)
            #expect(Int(record.headers["apns-expiration"] ?? "") != nil)
            let body = try #require(record.bodyJSON as? [String: Any])
            let aps = try #require(body["aps"] as? [String: Any])
            #expect((aps["alert"] as? [String: String])?["body"] != nil)
            #expect(aps["category"] as? String == category)
            #expect(aps["interruption-level"] as? String == "time-sensitive")
            #expect(aps["thread-id"] as? String == sid)
            #expect(aps["mutable-content"] as? Int == 1)
            #expect(body["questionId"] as? String == id)
            #expect(body["sid"] as? String == sid)
            #expect(body["kind"] as? String == kind)
            #expect(body["options"] is [String])
        }
        return id
    }

    /// Checks the background withdrawal of question `id` to both phones.
    static func checkWithdrawals(_ records: [MockRecord], id: String) {
        #expect(records.map(\.token) == [hexA, hexB])
        for record in records {
            #expect(record.pushType == "background")
            #expect(record.headers["apns-priority"] == "5")
            #expect(record.headers["apns-collapse-id"] == id)
            let body = record.bodyJSON as? [String: Any]
            #expect(body?["event"] as? String == "question.updated")
            #expect(body?["questionId"] as? String == id)
            #expect((body?["aps"] as? [String: Int]) == ["content-available": 1])
        }
    }

    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    @Test("Phone answers reach real hooks: allow, deny, AskUserQuestion, timeout, terminal first, two phones at once")
    func answersFromThePhone() async throws {
        let home = try makeTemporaryDirectory()
        let pushes = try MockPushes()
        defer { pushes.server.stop() }
        let port = freePort()
        let serve = try await ServeProcess.start(
            port: port, environment: try ServeProcessTests.environment(home: home, pushPort: port, apnsURL: pushes.server.baseURL))
        defer { serve.stop(SIGTERM) }
        #expect(serve.printed.contains("live activities: pushing"))
        for (device, hex) in [("phone-a", hexA), ("phone-b", hexB)] {
            let (status, _) = try await serve.call(
                "PUT", "/api/devices/\(device)", #"{"env":"sandbox","apnsToken":"\#(hex)"}"#, token: Self.token)
            #expect(status == 200)
        }
        let world = World(serve: serve, pushes: pushes, hookEnvironment: [
            "LFG_HOME": try makeTemporaryDirectory(), "LFG_URL": "http://127.0.0.1:\(port)", "LFG_AUTH_TOKEN": Self.token,
            "LFG_ANSWER_POLICY": "always", "LFG_HOOK_BUDGET_MS": "5000",
        ])

        // Allow: the alert reaches both phones, phone A answers, the hook prints the allow decision.
        let allowHook = try world.hook(Self.permissionRequest("e2e-allow"))
        defer { allowHook.stop() }
        let allowID = try Self.checkAlerts(
            try await Self.next(2, pushes), sid: "e2e-allow", kind: "confirm", category: "LFG_QUESTION_CONFIRM")
        #expect(try await world.answer(allowID, "Allow", by: "phone-a").0 == 200)
        let allowed = await allowHook.finish()
        #expect(allowed.status == 0)
        let allowOutput = try #require(Self.json(allowed.output)?["hookSpecificOutput"] as? [String: Any])
        #expect(allowOutput["hookEventName"] as? String == "PermissionRequest")
        #expect(allowOutput["decision"] as? [String: String] == ["behavior": "allow"])
        Self.checkWithdrawals(try await Self.next(2, pushes), id: allowID)

        // Deny.
        let denyHook = try world.hook(Self.permissionRequest("e2e-deny"))
        defer { denyHook.stop() }
        let denyID = try Self.checkAlerts(
            try await Self.next(2, pushes), sid: "e2e-deny", kind: "confirm", category: "LFG_QUESTION_CONFIRM")
        #expect(try await world.answer(denyID, "Deny", by: "phone-b").0 == 200)
        let denied = await denyHook.finish()
        let denyDecision = (Self.json(denied.output)?["hookSpecificOutput"] as? [String: Any])?["decision"] as? [String: Any]
        #expect(denyDecision?["behavior"] as? String == "deny")
        Self.checkWithdrawals(try await Self.next(2, pushes), id: denyID)

        // AskUserQuestion: the answer goes back in updatedInput.answers.
        let askHook = try world.hook(Self.askUserQuestion("e2e-ask"))
        defer { askHook.stop() }
        let askID = try Self.checkAlerts(
            try await Self.next(2, pushes), sid: "e2e-ask", kind: "choice", category: "LFG_QUESTION_CHOICE")
        #expect(try await world.answer(askID, "SQLite", by: "phone-a").0 == 200)
        let asked = await askHook.finish()
        let askOutput = Self.json(asked.output)?["hookSpecificOutput"] as? [String: Any]
        #expect(askOutput?["permissionDecision"] as? String == "allow")
        let updatedInput = askOutput?["updatedInput"] as? [String: Any]
        #expect(updatedInput?["answers"] as? [String: String] == ["Which database?": "SQLite"])
        #expect((updatedInput?["questions"] as? [Any])?.count == 1)
        Self.checkWithdrawals(try await Self.next(2, pushes), id: askID)

        // Timeout: nobody answers; the hook prints nothing and exits 0; the question expires and is withdrawn.
        let lateHook = try world.hook(Self.permissionRequest("e2e-late"), waitSeconds: 1)
        defer { lateHook.stop() }
        let lateID = try Self.checkAlerts(
            try await Self.next(2, pushes), sid: "e2e-late", kind: "confirm", category: "LFG_QUESTION_CONFIRM")
        let late = await lateHook.finish()
        #expect(late.status == 0)
        #expect(late.output.isEmpty)
        Self.checkWithdrawals(try await Self.next(2, pushes), id: lateID)
        #expect(try await serve.call("GET", "/api/questions/\(lateID)", token: Self.token).1["state"] as? String == "expired")

        // Answered at the terminal first: the tool runs, PostToolUse clears the prompt, the question is
        // cancelled, its alert withdrawn, and the waiting hook released with nothing to print.
        let terminalHook = try world.hook(Self.permissionRequest("e2e-terminal"))
        defer { terminalHook.stop() }
        let terminalID = try Self.checkAlerts(
            try await Self.next(2, pushes), sid: "e2e-terminal", kind: "confirm", category: "LFG_QUESTION_CONFIRM")
        let cleared = await (try world.hook(Self.postToolUse("e2e-terminal"))).finish()
        #expect(cleared.status == 0 && cleared.output.isEmpty)
        Self.checkWithdrawals(try await Self.next(2, pushes), id: terminalID)
        let released = await terminalHook.finish()
        #expect(released.status == 0)
        #expect(released.output.isEmpty)
        let cancelled = try await serve.call("GET", "/api/questions/\(terminalID)", token: Self.token).1
        #expect(cancelled["state"] as? String == "cancelled")
        #expect(cancelled["answeredBy"] as? String == "terminal")

        // Two phones at once: one wins (200), the other gets 409 with the winner's answer.
        let raceHook = try world.hook(Self.permissionRequest("e2e-race"))
        defer { raceHook.stop() }
        let raceID = try Self.checkAlerts(
            try await Self.next(2, pushes), sid: "e2e-race", kind: "confirm", category: "LFG_QUESTION_CONFIRM")
        async let first = world.answer(raceID, "Allow", by: "phone-a")
        async let second = world.answer(raceID, "Deny", by: "phone-b")
        let answers = [try await first, try await second]
        #expect(answers.map(\.0).sorted() == [200, 409])
        let winner = try #require(answers.first { $0.0 == 200 }?.1["answer"] as? String)
        #expect(answers.first { $0.0 == 409 }?.1["answer"] as? String == winner)
        let raced = await raceHook.finish()
        let raceDecision = (Self.json(raced.output)?["hookSpecificOutput"] as? [String: Any])?["decision"] as? [String: Any]
        #expect(raceDecision?["behavior"] as? String == (winner == "Allow" ? "allow" : "deny"))
        Self.checkWithdrawals(try await Self.next(2, pushes), id: raceID)
    }
}
