/// Codex CLI hook payloads as Codex sends them on stdin, written from Codex's generated input schemas
/// (`codex-rs/hooks/schema/generated/*.command.input.schema.json`, see docs/codex-hooks.md): one
/// whole session in `/home/ana/src/tokenizer`, with a shell approval answered in the terminal.
enum CodexPayloads {
    static let sid = "0199a7c2-5e1f-7b40-9d3a-6c2f1e8b4a10"
    static let cwd = "/home/ana/src/tokenizer"
    static let transcript = "/home/ana/.codex/sessions/2026/12/01/rollout-2026-12-01T09-12-44-\(sid).jsonl"

    static func common(_ event: String, turn: String? = "turn-1") -> String {
        let turnField = turn.map { #""turn_id": "\#($0)", "# } ?? ""
        return #""session_id": "\#(sid)", \#(turnField)"transcript_path": "\#(transcript)", "cwd": "\#(cwd)", "hook_event_name": "\#(event)", "model": "gpt-5.1-codex", "permission_mode": "default""#
    }

    static let sessionStart = "{\(common("SessionStart", turn: nil)), \"source\": \"startup\"}"
    static let userPromptSubmit = "{\(common("UserPromptSubmit")), \"prompt\": \"Fix the flaky test in the parser crate\\nIt fails one run in ten.\"}"
    static let preToolUseTest = "{\(common("PreToolUse")), \"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"cargo test -p parser\"}, \"tool_use_id\": \"call_01\"}"
    static let postToolUseTest = "{\(common("PostToolUse")), \"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"cargo test -p parser\"}, \"tool_response\": \"test result: ok. 41 passed\", \"tool_use_id\": \"call_01\"}"
    static let permissionRequest = "{\(common("PermissionRequest")), \"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"rm -rf target\", \"description\": \"Clean the build\"}}"
    static let preToolUseRemove = "{\(common("PreToolUse")), \"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"rm -rf target\"}, \"tool_use_id\": \"call_02\"}"
    static let postToolUseRemove = "{\(common("PostToolUse")), \"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"rm -rf target\"}, \"tool_response\": \"\", \"tool_use_id\": \"call_02\"}"
    static let subagentStart = "{\(common("SubagentStart")), \"agent_id\": \"agent-7\", \"agent_type\": \"explorer\"}"
    static let stop = "{\(common("Stop")), \"stop_hook_active\": false, \"last_assistant_message\": \"The flake was a shared temp dir; each test now gets its own.\"}"

    /// The whole session in order, with the display state `GET /api/sessions` should show after each.
    static let wholeSession: [(name: String, payload: String, display: String)] = [
        ("SessionStart", sessionStart, "idle"),
        ("UserPromptSubmit", userPromptSubmit, "working"),
        ("PreToolUse cargo test", preToolUseTest, "working"),
        ("PostToolUse cargo test", postToolUseTest, "working"),
        ("PermissionRequest rm", permissionRequest, "needsInput"),
        ("PreToolUse rm (approved)", preToolUseRemove, "working"),
        ("PostToolUse rm", postToolUseRemove, "working"),
        ("SubagentStart", subagentStart, "working"),
        ("Stop", stop, "idle"),
    ]
}
