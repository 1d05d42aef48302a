import FleetCore

/// What an event can ask the phone, and how an answer becomes Claude Code's decision (hooks reference
/// section 4). Pure: the runner decides whether to wait, this decides what to ask and what to print.
///
/// Asked: a `PermissionRequest` (any tool but AskUserQuestion and ExitPlanMode, whose `PreToolUse` is
/// the wait, so no question is asked twice), and a `PreToolUse` of AskUserQuestion with exactly one
/// question (an answer must fill every question's `answers` entry) or of ExitPlanMode.
public struct PhoneQuestion: Hashable, Sendable {
    public enum Gate: Hashable, Sendable {
        /// `PermissionRequest`: `decision.behavior` allow/deny.
        case permission
        /// `PreToolUse` of AskUserQuestion: allow with `updatedInput.answers`.
        case askUserQuestion(question: String)
        /// `PreToolUse` of ExitPlanMode: allow with the plan as `updatedInput`, or deny to keep planning.
        case exitPlanMode
    }

    public var gate: Gate
    /// The prompt the session reports while it waits (its `id` and `expiresAt` are added by the runner).
    public var prompt: Prompt
    /// The event's `tool_input`, echoed back where a decision needs it.
    public var toolInput: JSONValue
    /// Claude Code's `permission_suggestions`; "Always allow" echoes the first.
    public var permissionSuggestions: [JSONValue]

    /// The question `event` asks (with its `permission_suggestions`), or nil when it asks none.
    public static func asked(by event: HookEvent, permissionSuggestions: [JSONValue] = []) -> PhoneQuestion? {
        guard event.mayWaitForPhone else { return nil }
        let tool = event.toolName ?? "tool"
        switch (event.name, tool) {
        case (.permissionRequest, "AskUserQuestion"), (.permissionRequest, "ExitPlanMode"):
            return nil
        case (.permissionRequest, _):
            var prompt = PromptText.forPermission(tool: tool, input: event.toolInput)
            prompt.canAlwaysAllow = permissionSuggestions.isEmpty ? nil : true
            return PhoneQuestion(
                gate: .permission, prompt: prompt, toolInput: event.toolInput, permissionSuggestions: permissionSuggestions)
        case (.preToolUse, "AskUserQuestion"):
            guard let questions = event.toolInput["questions"]?.arrayValue, questions.count == 1,
                let text = questions[0]["question"]?.stringValue, !text.isEmpty
            else { return nil }
            let labels = (questions[0]["options"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
            var prompt = PromptText.question(event.toolInput)
            prompt.options = labels.isEmpty ? nil : labels
            return PhoneQuestion(
                gate: .askUserQuestion(question: text), prompt: prompt, toolInput: event.toolInput, permissionSuggestions: [])
        case (.preToolUse, "ExitPlanMode"):
            return PhoneQuestion(
                gate: .exitPlanMode, prompt: PromptText.plan(event.toolInput), toolInput: event.toolInput,
                permissionSuggestions: [])
        default:
            return nil
        }
    }

    /// Claude Code's decision for an answered question, or nil when there is none to print (not answered,
    /// or an answer this gate cannot use).
    public func decision(for question: Question) -> JSONValue? {
        guard question.state == .answered, let answer = question.answer else { return nil }
        let by = question.answeredBy.map { " (\($0))" } ?? ""
        switch gate {
        case .permission:
            var decision: JSONObject
            switch answer {
            case Question.permissionOptions[0]:
                decision = ["behavior": "allow"]
            case Question.alwaysAllowAnswer:
                decision = ["behavior": "allow"]
                if let suggestion = permissionSuggestions.first { decision["updatedPermissions"] = .array([suggestion]) }
            case Question.permissionOptions[1]:
                decision = ["behavior": "deny", "message": .string("Denied from the phone\(by).")]
            default:
                return nil
            }
            return Self.output("PermissionRequest", ["decision": .object(decision)])
        case .askUserQuestion(let text):
            guard case .object(var input) = toolInput else { return nil }
            input["answers"] = .object([text: .string(answer)])
            return Self.output("PreToolUse", [
                "permissionDecision": "allow", "permissionDecisionReason": .string("Answered from the phone\(by)."),
                "updatedInput": .object(input),
            ])
        case .exitPlanMode:
            switch answer {
            case Question.planOptions[0]:
                return Self.output("PreToolUse", [
                    "permissionDecision": "allow", "permissionDecisionReason": .string("Plan approved from the phone\(by)."),
                    "updatedInput": toolInput,
                ])
            case Question.planOptions[1]:
                return Self.output("PreToolUse", [
                    "permissionDecision": "deny",
                    "permissionDecisionReason": .string("The user chose to keep planning (answered from the phone\(by))."),
                ])
            default:
                return nil
            }
        }
    }

    /// `{"hookSpecificOutput": {"hookEventName": name, ...fields}}`.
    static func output(_ eventName: String, _ fields: JSONObject) -> JSONValue {
        var specific: JSONObject = ["hookEventName": .string(eventName)]
        for member in fields.members { specific[member.key] = member.value }
        return .object(["hookSpecificOutput": .object(specific)])
    }
}
