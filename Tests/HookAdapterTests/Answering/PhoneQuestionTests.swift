import FleetCore
import HookAdapter
import Testing

/// What each event asks the phone, and the exact decision JSON an answer prints (hooks reference section 4).
@Suite struct PhoneQuestionTests {
    static func event(_ json: String) throws -> HookEvent { try HookEvent.decode(json) }

    static func answered(_ question: PhoneQuestion, _ answer: String, by: String? = "phone") -> Question {
        var asked = Question.asked(by: Prompt(
            id: "q1", kind: question.prompt.kind, text: question.prompt.text, options: question.prompt.options,
            canAlwaysAllow: question.prompt.canAlwaysAllow), in: "s1", at: 0, defaultLifetime: 60)!
        asked.state = .answered
        asked.answer = answer
        asked.answeredBy = by
        return asked
    }

    static let bash = #"{"session_id":"s1","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}"#
    static let suggestion: JSONValue = .object([
        "type": "addRules", "rules": .array([.object(["toolName": "Bash", "ruleContent": "rm -rf build"])]),
        "behavior": "allow", "destination": "localSettings",
    ])

    @Test("A permission request asks a confirm question; Allow and Deny print the PermissionRequest decision")
    func permission() throws {
        let question = try #require(PhoneQuestion.asked(by: try Self.event(Self.bash)))
        #expect(question.prompt.kind == .permission)
        #expect(question.prompt.canAlwaysAllow == nil)
        #expect(question.decision(for: Self.answered(question, "Allow")) == .object([
            "hookSpecificOutput": .object(["hookEventName": "PermissionRequest", "decision": .object(["behavior": "allow"])]),
        ]))
        #expect(question.decision(for: Self.answered(question, "Deny")) == .object([
            "hookSpecificOutput": .object([
                "hookEventName": "PermissionRequest",
                "decision": .object(["behavior": "deny", "message": "Denied from the phone (phone)."]),
            ]),
        ]))
    }

    @Test("Always allow echoes the first permission suggestion as updatedPermissions")
    func alwaysAllow() throws {
        let question = try #require(PhoneQuestion.asked(by: try Self.event(Self.bash), permissionSuggestions: [Self.suggestion]))
        #expect(question.prompt.canAlwaysAllow == true)
        #expect(question.decision(for: Self.answered(question, Question.alwaysAllowAnswer)) == .object([
            "hookSpecificOutput": .object([
                "hookEventName": "PermissionRequest",
                "decision": .object(["behavior": "allow", "updatedPermissions": .array([Self.suggestion])]),
            ]),
        ]))
    }

    @Test("AskUserQuestion asks a choice; the answer fills updatedInput.answers beside the original questions")
    func askUserQuestion() throws {
        let json = #"{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which database?","header":"DB","options":[{"label":"Postgres"},{"label":"SQLite"}],"multiSelect":false}]}}"#
        let event = try Self.event(json)
        let question = try #require(PhoneQuestion.asked(by: event))
        #expect(question.prompt.kind == .question)
        #expect(question.prompt.options == ["Postgres", "SQLite"])
        guard case .object(var input) = event.toolInput else { throw PhoneQuestionTestError() }
        input["answers"] = .object(["Which database?": "SQLite"])
        #expect(question.decision(for: Self.answered(question, "SQLite")) == .object([
            "hookSpecificOutput": .object([
                "hookEventName": "PreToolUse", "permissionDecision": "allow",
                "permissionDecisionReason": "Answered from the phone (phone).", "updatedInput": .object(input),
            ]),
        ]))
    }

    @Test("ExitPlanMode: Approve allows with the plan as input; Keep planning denies")
    func exitPlanMode() throws {
        let event = try Self.event(##"{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"ExitPlanMode","tool_input":{"plan":"# Ship it\n1. build"}}"##)
        let question = try #require(PhoneQuestion.asked(by: event))
        #expect(question.prompt == Prompt(kind: .plan, text: "Ship it"))
        let approve = question.decision(for: Self.answered(question, "Approve"))
        #expect(approve?["hookSpecificOutput"]?["permissionDecision"] == "allow")
        #expect(approve?["hookSpecificOutput"]?["updatedInput"] == event.toolInput)
        #expect(question.decision(for: Self.answered(question, "Keep planning"))?["hookSpecificOutput"]?["permissionDecision"] == "deny")
    }

    @Test("Nothing is asked twice or unanswerably: their PermissionRequest, several questions, other events")
    func notAsked() throws {
        for json in [
            #"{"session_id":"s1","hook_event_name":"PermissionRequest","tool_name":"AskUserQuestion","tool_input":{}}"#,
            #"{"session_id":"s1","hook_event_name":"PermissionRequest","tool_name":"ExitPlanMode","tool_input":{}}"#,
            #"{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"a"},{"question":"b"}]}}"#,
            #"{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#,
            #"{"session_id":"s1","hook_event_name":"Stop"}"#,
        ] {
            #expect(PhoneQuestion.asked(by: try Self.event(json)) == nil)
        }
    }

    @Test("A question not answered, or answered with something the gate cannot use, prints nothing")
    func noDecision() throws {
        let question = try #require(PhoneQuestion.asked(by: try Self.event(Self.bash)))
        var cancelled = Self.answered(question, "Allow", by: "terminal")
        cancelled.state = .cancelled
        cancelled.answer = nil
        #expect(question.decision(for: cancelled) == nil)
        #expect(question.decision(for: Self.answered(question, "Maybe")) == nil)
    }
}

struct PhoneQuestionTestError: Error {}
