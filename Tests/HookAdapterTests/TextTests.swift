import FleetCore
import HookAdapter
import Testing

@Suite("Step lines and decoding of hook input")
struct TextTests {
    @Test("Each tool gets a short step line", arguments: [
        ("Read", #"{"file_path": "/a/b/SessionListView.swift"}"#, "Read SessionListView.swift"),
        ("Edit", #"{"file_path": "/a/Foo.swift"}"#, "Edit Foo.swift"),
        ("Write", #"{"file_path": "/a/New.swift", "content": "x"}"#, "Write New.swift"),
        ("NotebookEdit", #"{"notebook_path": "/a/n.ipynb"}"#, "NotebookEdit n.ipynb"),
        ("Bash", #"{"command": "swift test"}"#, "Bash: swift test"),
        ("Bash", #"{"command": "cd /tmp &&\n  make   all"}"#, "Bash: cd /tmp &&"),
        ("Bash", "{}", "Bash"),
        ("Glob", #"{"pattern": "**/*.swift"}"#, "Glob **/*.swift"),
        ("Grep", #"{"pattern": "TODO"}"#, "Grep TODO"),
        ("WebFetch", #"{"url": "https://developer.apple.com/docs?x=1", "prompt": "p"}"#, "WebFetch developer.apple.com"),
        ("WebSearch", #"{"query": "ActivityKit broadcast"}"#, "WebSearch ActivityKit broadcast"),
        ("Agent", #"{"description": "Find the tests", "subagent_type": "Explore"}"#, "Agent: Find the tests"),
        ("TodoWrite", #"{"todos": []}"#, "Update todos"),
        ("mcp__github__create_issue", "{}", "github: create_issue"),
        ("SomethingNew", "{}", "SomethingNew"),
    ])
    func steps(tool: String, input: String, expected: String) throws {
        #expect(StepText.describe(tool: tool, input: try JSONParser.parse(input)) == expected)
    }

    @Test("A long command is cut to one line with an ellipsis")
    func longCommand() throws {
        let command = String(repeating: "x", count: 200)
        let step = StepText.describe(tool: "Bash", input: .object(["command": .string(command)]))
        #expect(step.count == "Bash: ".count + 60)
        #expect(step.hasSuffix("…"))
    }

    @Test("Input fields of the wrong type read as absent instead of failing")
    func lenientFields() throws {
        let event = try HookEvent.decode(#"{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": 7, "cwd": null, "agent_id": "", "background_tasks": "none", "new_field": {"x": 1}}"#)
        #expect(event.toolName == nil)
        #expect(event.cwd == nil)
        #expect(event.agentID == nil)
        #expect(event.backgroundWork == 0)
        #expect(event.name == .preToolUse)
    }

    @Test("An unknown event name is kept as it is")
    func unknownName() throws {
        let event = try HookEvent.decode(#"{"session_id": "s", "hook_event_name": "PostToolBatch"}"#)
        #expect(event.name == .unknown("PostToolBatch"))
        #expect(event.name.rawValue == "PostToolBatch")
        #expect(HookEventName(rawValue: "PreToolUse").rawValue == "PreToolUse")
    }

    @Test("Input without a session, or not a JSON object, is refused with a reason", arguments: [
        (#"{"hook_event_name": "Stop"}"#, "no session_id"),
        (#"{"session_id": ""}"#, "no session_id"),
        ("[1, 2]", "an array"),
        ("{nope", "not JSON"),
        ("", "not JSON"),
    ])
    func refused(input: String, reason: String) {
        #expect {
            _ = try HookEvent.decode(input)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
