/// Hook payloads as Claude Code sends them on stdin (written from the hooks reference), for one
/// whole session in the project folder `/Users/eugene/code/LFG`: start, first prompt, tools, a
/// permission wait answered in the terminal, a subagent, the end of the turn, the end of the session.
enum RecordedPayloads {
    static let sid = "6f1c2a9e-3b7d-4e0a-9c55-0d2e8f41b7aa"
    static let transcript = "/Users/eugene/.claude/projects/-Users-eugene-code-LFG/\(sid).jsonl"
    static let cwd = "/Users/eugene/code/LFG"

    static let sessionStart = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)",
         "hook_event_name": "SessionStart", "source": "startup", "model": "claude-opus-4-5"}
        """

    static let userPromptSubmit = """
        {"session_id": "\(sid)", "prompt_id": "0b7e4f7c-1d5e-4c1a-8a7b-3f2d9e6c5b4a", "transcript_path": "\(transcript)",
         "cwd": "\(cwd)", "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
         "prompt": "In the iOS client, can you add pull-to-refresh to the session list?\\nKeep the existing spinner."}
        """

    static let preToolUseRead = toolEvent(
        "PreToolUse", tool: "Read",
        input: #"{"file_path": "/Users/eugene/code/LFG/ios/LFG/SessionListView.swift"}"#, useID: "toolu_01")
    static let postToolUseRead = toolEvent(
        "PostToolUse", tool: "Read",
        input: #"{"file_path": "/Users/eugene/code/LFG/ios/LFG/SessionListView.swift"}"#, useID: "toolu_01",
        extra: #", "tool_response": {"type": "text"}, "duration_ms": 12"#)
    static let preToolUseBash = toolEvent(
        "PreToolUse", tool: "Bash", input: #"{"command": "swift test", "description": "Run the tests"}"#,
        useID: "toolu_02")
    static let postToolUseBash = toolEvent(
        "PostToolUse", tool: "Bash", input: #"{"command": "swift test", "description": "Run the tests"}"#,
        useID: "toolu_02", extra: #", "tool_response": {"stdout": "ok", "stderr": ""}, "duration_ms": 5400"#)
    static let preToolUseRemove = toolEvent(
        "PreToolUse", tool: "Bash", input: #"{"command": "rm -rf .build", "description": "Clean the build"}"#,
        useID: "toolu_03")
    static let permissionRequest = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "permission_mode": "default",
         "hook_event_name": "PermissionRequest", "tool_name": "Bash",
         "tool_input": {"command": "rm -rf .build", "description": "Clean the build"},
         "permission_suggestions": [{"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "rm -rf .build"}],
                                     "behavior": "allow", "destination": "localSettings"}]}
        """
    static let permissionNotification = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "hook_event_name": "Notification",
         "message": "Claude needs your permission to use Bash", "title": "Claude Code",
         "notification_type": "permission_prompt"}
        """
    static let postToolUseRemove = toolEvent(
        "PostToolUse", tool: "Bash", input: #"{"command": "rm -rf .build", "description": "Clean the build"}"#,
        useID: "toolu_03", extra: #", "tool_response": {"stdout": "", "stderr": ""}, "duration_ms": 310"#)
    static let preToolUseEdit = toolEvent(
        "PreToolUse", tool: "Edit",
        input: #"{"file_path": "/Users/eugene/code/LFG/ios/LFG/SessionListView.swift", "old_string": "List {", "new_string": "List {\n", "replace_all": false}"#,
        useID: "toolu_04")
    static let subagentStart = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "hook_event_name": "SubagentStart",
         "agent_id": "agent-7", "agent_type": "Explore"}
        """
    static let subagentPreToolUse = toolEvent(
        "PreToolUse", tool: "Grep", input: #"{"pattern": "refreshable", "path": "ios"}"#, useID: "toolu_05",
        extra: #", "agent_id": "agent-7", "agent_type": "Explore""#)
    static let subagentStop = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "hook_event_name": "SubagentStop",
         "agent_id": "agent-7", "agent_type": "Explore", "stop_hook_active": false,
         "agent_transcript_path": "/tmp/agent-7.jsonl", "last_assistant_message": "Found 2 uses."}
        """
    static let stop = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "permission_mode": "default",
         "hook_event_name": "Stop", "stop_hook_active": false,
         "last_assistant_message": "Pull-to-refresh is in; the tests pass.", "background_tasks": [], "session_crons": []}
        """
    static let sessionEnd = """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "hook_event_name": "SessionEnd",
         "reason": "prompt_input_exit"}
        """

    /// The whole session in the order Claude Code fires it.
    static let wholeSession: [(name: String, payload: String)] = [
        ("SessionStart", sessionStart), ("UserPromptSubmit", userPromptSubmit),
        ("PreToolUse Read", preToolUseRead), ("PostToolUse Read", postToolUseRead),
        ("PreToolUse Bash", preToolUseBash), ("PostToolUse Bash", postToolUseBash),
        ("PreToolUse rm", preToolUseRemove), ("PermissionRequest", permissionRequest),
        ("Notification permission_prompt", permissionNotification), ("PostToolUse rm", postToolUseRemove),
        ("SubagentStart", subagentStart), ("Subagent PreToolUse", subagentPreToolUse), ("SubagentStop", subagentStop),
        ("PreToolUse Edit", preToolUseEdit), ("Stop", stop), ("SessionEnd", sessionEnd),
    ]

    static func toolEvent(_ event: String, tool: String, input: String, useID: String, extra: String = "") -> String {
        """
        {"session_id": "\(sid)", "transcript_path": "\(transcript)", "cwd": "\(cwd)", "permission_mode": "default",
         "effort": {"level": "high"}, "hook_event_name": "\(event)", "tool_name": "\(tool)", "tool_input": \(input),
         "tool_use_id": "\(useID)"\(extra)}
        """
    }
}
