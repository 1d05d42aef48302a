import FleetCore
import Foundation
import HTTPServer
import HTTPTypes
import HookAdapter
import LFGCommandTesting
import Synchronization
import Testing

/// Codex's `PermissionRequest` answered from the phone (issue 15.1): the recorded payload goes through the
/// real `lfg hook --agent codex`, the prompt it reports carries a question, the server says the phone
/// answered, and the hook prints Codex's decision, in exactly the shape Codex accepts
/// (`codex-rs/hooks/src/schema.rs`, `PermissionRequestCommandOutputWire`; docs/codex-hooks.md).
@Suite("Codex: a PermissionRequest answered from the phone")
struct CodexPhoneAnswerTests {
    static let token = "c0dex0123456789abcdef0123456789a"

    /// A control-plane stand-in: takes session reports, and answers a question's long poll as
    /// answered by phone "iphone-1" with `answer`.
    final class AnsweringServer: Sendable {
        let answer: String
        let reports = Mutex<[String: SessionReport]>([:])
        init(answer: String) { self.answer = answer }

        func serve<T: Sendable>(_ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
            let handler = HandlerFunction { [self] request in
                let parts = request.pathComponents
                if request.method == "PUT", parts.count == 3, parts[1] == "sessions",
                    let report = try? JSONDecoder().decode(SessionReport.self, from: request.body)
                {
                    reports.withLock { $0[parts[2]] = report }
                    return .json(report)
                }
                guard request.method == "GET", parts.count == 4, parts[1] == "questions", parts[3] == "wait" else {
                    return .error(404, "not found")
                }
                let asked = reports.withLock { reports in
                    reports.compactMap { sid, report in
                        report.prompt.flatMap { $0.id == parts[2] ? Question.asked(by: $0, in: SessionID(sid), at: 0, defaultLifetime: 600) : nil }
                    }.first
                }
                guard var question = asked else { return .error(404, "no such question") }
                question.state = .answered
                question.answer = answer
                question.answeredBy = "iphone-1"
                return .json(question)
            }
            let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0), handler: handler)
            let port = try server.start()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                defer { group.cancelAll() }
                return try await body("http://127.0.0.1:\(port)")
            }
        }
    }

    static func run(answer: String) async throws -> ((status: Int32, output: String, errors: String), SessionReport?) {
        let folder = try TemporaryFolder()
        let server = AnsweringServer(answer: answer)
        let run = try await server.serve { url in
            let environment = [
                "LFG_HOME": folder.path, "LFG_URL": url, "LFG_AUTH_TOKEN": Self.token, "LFG_HOOK_BUDGET_MS": "10000",
                "LFG_ANSWER_POLICY": "always", "LFG_ANSWER_WAIT_S": "30",
            ]
            return await CapturedRun.run(["hook", "--agent", "codex"], input: CodexPayloads.permissionRequest, environment: environment)
        }
        return (run, server.reports.withLock { $0[CodexPayloads.sid] })
    }

    @Test("Allow from the phone prints Codex's allow decision, nothing else")
    func allow() async throws {
        let (run, report) = try await Self.run(answer: "Allow")
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        let prompt = try #require(report?.prompt)
        #expect(prompt.kind == .permission)
        #expect(prompt.text == "Bash: rm -rf target")
        #expect(prompt.id?.hasPrefix("q-") == true)
        #expect(prompt.canAlwaysAllow == nil)  // Codex rejects updatedPermissions: never offer "Always allow"
        #expect(try JSONParser.parse(run.output) == .object([
            "hookSpecificOutput": .object(["hookEventName": "PermissionRequest", "decision": .object(["behavior": "allow"])]),
        ]))
    }

    @Test("Deny from the phone prints Codex's deny decision with the message Codex shows")
    func deny() async throws {
        let (run, _) = try await Self.run(answer: "Deny")
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        #expect(try JSONParser.parse(run.output) == .object([
            "hookSpecificOutput": .object([
                "hookEventName": "PermissionRequest",
                "decision": .object(["behavior": "deny", "message": "Denied from the phone (iphone-1)."]),
            ]),
        ]))
    }

    @Test("Codex's decision uses only the fields Codex's schema allows (deny_unknown_fields)")
    func onlyCodexFields() async throws {
        for answer in ["Allow", "Deny"] {
            let (run, _) = try await Self.run(answer: answer)
            let output = try JSONParser.parse(run.output)
            #expect(output.objectValue?.members.map(\.key) == ["hookSpecificOutput"])
            let specific = try #require(output["hookSpecificOutput"]?.objectValue)
            #expect(Set(specific.members.map(\.key)) == ["hookEventName", "decision"])
            let decision = try #require(specific["decision"]?.objectValue)
            #expect(Set(decision.members.map(\.key)).isSubset(of: ["behavior", "message"]))
        }
    }
}
