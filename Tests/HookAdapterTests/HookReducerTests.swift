import FleetCore
import HookAdapter
import Testing

@Suite("Hook events mapped to session reports")
struct HookReducerTests {
    static let sid = "s1"

    /// A payload for session `s1` in `/work/proj` with extra fields.
    static func event(_ name: String, _ fields: String = "") throws -> HookEvent {
        try HookEvent.decode(#"{"session_id": "s1", "cwd": "/work/proj", "hook_event_name": "\#(name)""# + fields + "}")
    }

    /// Runs events in order from a fresh session and returns the final state.
    static func run(_ events: [HookEvent]) -> HookSessionState? {
        var state: HookSessionState?
        for event in events { _ = HookReducer.reduce(&state, event, host: .local) }
        return state
    }

    static func prompt(_ text: String) throws -> HookEvent {
        try event("UserPromptSubmit", #", "prompt": "\#(text)""#)
    }

    @Test("The title is the project folder until the first prompt, which later prompts do not replace")
    func titleRules() throws {
        let started = try #require(Self.run([try Self.event("SessionStart", #", "source": "startup""#)]))
        #expect(started.report.title == "proj")
        let prompted = try #require(Self.run([try Self.event("SessionStart"), try Self.prompt("Fix the flaky test"), try Self.prompt("and the other one")]))
        #expect(prompted.report.title == "Fix the flaky test")
    }

    @Test("A blank first prompt keeps the folder title until a real one comes")
    func blankPrompt() throws {
        let state = try #require(Self.run([try Self.event("SessionStart"), try Self.prompt("  \\n "), try Self.prompt("Ship it")]))
        #expect(state.report.title == "Ship it")
    }

    @Test("Claude's own session title wins over the prompt")
    func claudeTitle() throws {
        let state = try #require(Self.run([
            try Self.event("SessionStart"), try Self.event("UserPromptSubmit", #", "prompt": "do it", "session_title": "Refactor the store""#),
            try Self.prompt("more"),
        ]))
        #expect(state.report.title == "Refactor the store")
    }

    @Test("After /clear the title goes back to the folder until the next first prompt")
    func clearResetsTitle() throws {
        let state = try #require(Self.run([
            try Self.event("SessionStart"), try Self.prompt("First task"), try Self.event("SessionStart", #", "source": "clear""#),
        ]))
        #expect(state.report.title == "proj")
        #expect(state.titleSource == .folder)
    }

    @Test("Compaction continues the turn: the session stays busy")
    func compactKeepsBusy() throws {
        let state = try #require(Self.run([try Self.prompt("go"), try Self.event("SessionStart", #", "source": "compact""#)]))
        #expect(state.report.busy)
        let resumed = try #require(Self.run([try Self.prompt("go"), try Self.event("SessionStart", #", "source": "resume""#)]))
        #expect(!resumed.report.busy)
    }

    @Test("AskUserQuestion waits on the user with its first question")
    func askUserQuestion() throws {
        let input = #", "tool_name": "AskUserQuestion", "tool_use_id": "t", "tool_input": {"questions": [{"question": "Which database?", "header": "DB", "options": [{"label": "SQLite"}], "multiSelect": false}]}"#
        let asked = try #require(Self.run([try Self.prompt("go"), try Self.event("PreToolUse", input)]))
        #expect(asked.report.prompt == Prompt(kind: .question, text: "Which database?"))
        let answered = try #require(Self.run([try Self.prompt("go"), try Self.event("PreToolUse", input), try Self.event("PostToolUse", input)]))
        #expect(answered.report.prompt == nil)
        #expect(answered.report.busy)
    }

    @Test("A plan to approve is a plan prompt titled by the plan's first line")
    func planApproval() throws {
        let input = ##", "tool_name": "ExitPlanMode", "tool_input": {"plan": "# Add pull-to-refresh\n\n1. Wire .refreshable"}"##
        let state = try #require(Self.run([try Self.prompt("plan it"), try Self.event("PermissionRequest", input)]))
        #expect(state.report.prompt == Prompt(kind: .plan, text: "Add pull-to-refresh"))
    }

    @Test("A permission notification without a PermissionRequest waits with its message")
    func notificationOnly() throws {
        let note = #", "notification_type": "permission_prompt", "message": "Claude needs your permission to use Bash""#
        let state = try #require(Self.run([try Self.prompt("go"), try Self.event("Notification", note)]))
        #expect(state.report.prompt == Prompt(kind: .permission, text: "Claude needs your permission to use Bash"))
        let old = try #require(Self.run([try Self.prompt("go"), try Self.event("Notification", #", "message": "Claude needs your permission to use Edit""#)]))
        #expect(old.report.prompt?.kind == .permission)
    }

    @Test("Idle and housekeeping notifications wait on nobody", arguments: ["idle_prompt", "auth_success", "agent_completed"])
    func quietNotifications(type: String) throws {
        let state = try #require(Self.run([try Self.prompt("go"), try Self.event("Stop"), try Self.event("Notification", #", "notification_type": "\#(type)", "message": "Claude is waiting for your input""#)]))
        #expect(state.report.prompt == nil)
        #expect(DisplayState.resolve(state.report, isHostDown: false) == .idle)
    }

    @Test("An interrupted turn (no Stop) is healed by the idle notification: nothing runs, nothing is asked")
    func interruptedTurn() throws {
        let request = #", "tool_name": "Bash", "tool_input": {"command": "make deploy"}"#
        let state = try #require(Self.run([
            try Self.prompt("go"), try Self.event("PermissionRequest", request),
            try Self.event("Notification", #", "notification_type": "idle_prompt", "message": "Claude is waiting for your input""#),
        ]))
        #expect(DisplayState.resolve(state.report, isHostDown: false) == .idle)
        #expect(state.report.step == nil)
    }

    @Test("An MCP elicitation is a question until its result arrives")
    func elicitation() throws {
        let asked = try #require(Self.run([try Self.prompt("go"), try Self.event("Elicitation", #", "message": "Pick a repository""#)]))
        #expect(asked.report.prompt == Prompt(kind: .question, text: "Pick a repository"))
        let answered = try #require(Self.run([try Self.prompt("go"), try Self.event("Elicitation", #", "message": "Pick""#), try Self.event("ElicitationResult")]))
        #expect(answered.report.prompt == nil)
    }

    @Test("A subagent's tool call neither answers the main thread's prompt nor wakes a finished turn")
    func subagentIsolation() throws {
        let request = #", "tool_name": "Bash", "tool_input": {"command": "make deploy"}"#
        let subagentTool = #", "tool_name": "Read", "tool_use_id": "t", "tool_input": {"file_path": "/a/B.swift"}, "agent_id": "ag1""#
        let waiting = try #require(Self.run([try Self.prompt("go"), try Self.event("PermissionRequest", request), try Self.event("PostToolUse", subagentTool)]))
        #expect(waiting.report.prompt == Prompt(kind: .permission, text: "Bash: make deploy"))
        let afterStop = try #require(Self.run([try Self.prompt("go"), try Self.event("Stop"), try Self.event("PreToolUse", subagentTool), try Self.event("SubagentStop", #", "agent_id": "ag1""#)]))
        #expect(!afterStop.report.busy)
        #expect(afterStop.report.unread)
        #expect(afterStop.report.step == nil)
    }

    @Test("A subagent's permission request waits on the user and its own tool call answers it")
    func subagentPermission() throws {
        let request = #", "tool_name": "Bash", "tool_input": {"command": "ls"}, "agent_id": "ag1""#
        let mainTool = #", "tool_name": "Read", "tool_use_id": "t", "tool_input": {"file_path": "/a/B.swift"}"#
        let waiting = try #require(Self.run([try Self.prompt("go"), try Self.event("PermissionRequest", request), try Self.event("PostToolUse", mainTool)]))
        #expect(waiting.report.prompt?.kind == .permission)
        let answered = try #require(Self.run([try Self.prompt("go"), try Self.event("PermissionRequest", request), try Self.event("PostToolUse", request + #", "tool_use_id": "u""#)]))
        #expect(answered.report.prompt == nil)
    }

    @Test("Subagent events reach the parent's one session: one sid, one report")
    func subagentNeverCountsTwice() throws {
        var state: HookSessionState?
        var sids = Set<SessionID>()
        for payload in [RecordedPayloads.userPromptSubmit, RecordedPayloads.subagentStart, RecordedPayloads.subagentPreToolUse, RecordedPayloads.subagentStop] {
            for case .putReport(let report) in HookReducer.reduce(&state, try HookEvent.decode(payload), host: .local) {
                sids.insert(report.sid)
            }
        }
        #expect(sids == [SessionID(RecordedPayloads.sid)])
    }

    @Test("A failed turn stops, unread, naming the error; background work is named on Stop")
    func stopVariants() throws {
        let failed = try #require(Self.run([try Self.prompt("go"), try Self.event("StopFailure", #", "error": "rate_limit""#)]))
        #expect(failed.report.step == "Stopped: rate limit")
        #expect(!failed.report.busy && failed.report.unread)
        #expect(DisplayState.resolve(failed.report, isHostDown: false) == .blocked)
        let background = try #require(Self.run([try Self.prompt("go"), try Self.event("Stop", #", "background_tasks": [{"id": "b1"}]"#)]))
        #expect(background.report.step == "Waiting on background work")
    }

    @Test("Unknown events and subagent lifecycle events change nothing and create no session")
    func unknownEvents() throws {
        var state: HookSessionState?
        #expect(HookReducer.reduce(&state, try Self.event("TeammateIdle"), host: .local).isEmpty)
        #expect(HookReducer.reduce(&state, try Self.event("SubagentStart", #", "agent_id": "a""#), host: .local).isEmpty)
        #expect(state == nil)
    }

    @Test("A session first seen mid-turn (hook installed late) is created with the folder title and the host")
    func lateInstall() throws {
        var state: HookSessionState?
        let effects = HookReducer.reduce(&state, try Self.event("PreToolUse", #", "tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": "ls -la"}"#), host: "mac")
        let expected = SessionReport(title: "proj", host: "mac", cwd: "/work/proj", busy: true, step: "Bash: ls -la")
        #expect(effects == [.putReport(SpooledReport(sid: "s1", report: expected))])
    }

    @Test("A resumed session after SessionEnd is shown again")
    func resumeAfterEnd() throws {
        let state = try #require(Self.run([try Self.prompt("go"), try Self.event("SessionEnd"), try Self.event("SessionStart", #", "source": "resume""#)]))
        #expect(!state.report.archived)
        #expect(state.report.title == "go")
    }

    @Test(
        "A failed turn never reads idle: a limit is paused, an account problem asks to sign in, anything else asks to retry",
        arguments: [
            ("rate_limit", DisplayState.blocked, nil), ("overloaded", .blocked, nil),
            ("authentication_failed", .needsInput, Prompt.Kind.signin), ("billing_error", .needsInput, .signin),
            ("max_output_tokens", .needsInput, .question), ("unknown", .needsInput, .question),
        ] as [(String, DisplayState, Prompt.Kind?)])
    func failedTurn(error: String, display: DisplayState, kind: Prompt.Kind?) throws {
        let failed = try #require(Self.run([try Self.prompt("go"), try Self.event("StopFailure", #", "error": "\#(error)""#)]))
        #expect(DisplayState.resolve(failed.report, isHostDown: false) == display)
        #expect(failed.report.prompt?.kind == kind)
        #expect(failed.report.unread && !failed.report.busy)
        // The next prompt, or a turn that resumed by itself, is working again.
        let retried = try #require(Self.run([try Self.prompt("go"), try Self.event("StopFailure", #", "error": "\#(error)""#), try Self.prompt("again")]))
        #expect(DisplayState.resolve(retried.report, isHostDown: false) == .working)
        let resumed = try #require(Self.run([
            try Self.prompt("go"), try Self.event("StopFailure", #", "error": "\#(error)""#),
            try Self.event("Notification", #", "notification_type": "quota_auto_resume_fired", "message": "Resumed""#),
        ]))
        if display == .blocked { #expect(DisplayState.resolve(resumed.report, isHostDown: false) == .working) }
    }
}
