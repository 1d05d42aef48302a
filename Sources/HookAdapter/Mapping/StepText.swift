import FleetCore
/// The `step` line for a tool call: what the agent is doing, e.g. "Read SessionListView.swift",
/// "Bash: swift test" or "Edit Foo.swift".
public enum StepText {
    /// Describes one call of `tool` with `input` (the event's `tool_input`).
    public static func describe(tool: String, input: JSONValue) -> String {
        func field(_ name: String) -> String? { input[name]?.stringValue.nonEmpty }
        func line(_ text: String?) -> String? { text.flatMap { ShortText.firstLine($0, limit: ShortText.stepLimit) } }

        switch tool {
        case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead":
            let file = (field("file_path") ?? field("notebook_path")).flatMap(ShortText.lastComponent)
            return file.map { "\(tool) \($0)" } ?? tool
        case "Bash", "PowerShell":
            return line(field("command")).map { "\(tool): \($0)" } ?? tool
        case "Glob", "Grep":
            return line(field("pattern")).map { "\(tool) \($0)" } ?? tool
        case "WebFetch":
            return field("url").map { "WebFetch \(host(of: $0))" } ?? tool
        case "WebSearch":
            return line(field("query")).map { "WebSearch \($0)" } ?? tool
        case "Agent", "Task":
            return line(field("description") ?? field("subagent_type")).map { "Agent: \($0)" } ?? "Agent"
        case "TodoWrite":
            return "Update todos"
        case "AskUserQuestion":
            return "Ask a question"
        case "ExitPlanMode":
            return "Present the plan"
        default:
            return mcpName(tool) ?? tool
        }
    }

    /// `mcp__github__create_issue` -> `github: create_issue`.
    static func mcpName(_ tool: String) -> String? {
        guard tool.hasPrefix("mcp__") else { return nil }
        let parts = tool.dropFirst(5).split(separator: "__", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return "\(parts[0]): \(parts[1])"
    }

    /// The host of a URL (`https://example.com/a` -> `example.com`), or the text when it has none.
    static func host(of url: String) -> String {
        let parts = url.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return url }
        return String(parts[2].prefix { $0 != "?" && $0 != "#" })
    }
}
