import FleetCore

/// What a session waits on the user for, built from a permission request, a question or a plan.
enum PromptText {
    /// The prompt a permission request for `tool` raises: AskUserQuestion is a question, ExitPlanMode
    /// a plan to approve, anything else a permission described like its step ("Bash: rm -rf build").
    /// With `asking`, the prompt carries the question `lfg hook` asks the phone (its id, expiry, options).
    static func forPermission(tool: String, input: JSONValue, asking: AskedQuestion? = nil) -> Prompt {
        let prompt = switch tool {
        case "AskUserQuestion": question(input)
        case "ExitPlanMode": plan(input)
        default: Prompt(kind: .permission, text: StepText.describe(tool: tool, input: input))
        }
        return asking.map { $0.applied(to: prompt) } ?? prompt
    }

    /// The first question AskUserQuestion asks.
    static func question(_ input: JSONValue) -> Prompt {
        let first = input["questions"]?.arrayValue?.first
        let text = first?["question"]?.stringValue ?? first?["header"]?.stringValue
        return Prompt(kind: .question, text: text.flatMap { ShortText.firstLine($0, limit: ShortText.promptLimit) } ?? "Claude has a question")
    }

    /// The plan's first line (its title, without Markdown heading marks).
    static func plan(_ input: JSONValue) -> Prompt {
        let title = input["plan"]?.stringValue.flatMap { plan in
            plan.split(whereSeparator: \.isNewline)
                .lazy
                .map { $0.drop { $0 == "#" || $0.isWhitespace } }
                .first { !$0.isEmpty }
        }
        let text = title.flatMap { ShortText.firstLine(String($0), limit: ShortText.promptLimit) }
        return Prompt(kind: .plan, text: text ?? "Approve the plan")
    }

    /// The prompt a Notification announces, or nil when it waits on nobody.
    ///
    /// Older Claude Code sends no `notification_type`; its message then decides ("Claude needs your
    /// permission to use Bash").
    static func forNotification(type: String?, message: String?) -> Prompt? {
        let text = message.flatMap { ShortText.firstLine($0, limit: ShortText.promptLimit) }
        switch type {
        case "permission_prompt":
            return Prompt(kind: .permission, text: text ?? "Claude needs your permission")
        case "elicitation_dialog", "elicitation_url_dialog", "agent_needs_input":
            return Prompt(kind: .question, text: text ?? "Claude needs your input")
        case nil:
            guard let text, text.lowercased().contains("permission") else { return nil }
            return Prompt(kind: .permission, text: text)
        default:
            return nil
        }
    }

    /// Notification types that say a question was answered elsewhere.
    static let answeredNotificationTypes: Set<String> = ["elicitation_complete", "elicitation_response"]
}
