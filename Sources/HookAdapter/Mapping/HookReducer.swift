import FleetCore

/// What the hook does after an event: put the session's whole report (PUT is idempotent and a
/// later one supersedes an earlier one, so spooled reports replay safely in order).
public enum HookEffect: Hashable, Sendable {
    case putReport(SpooledReport)
}

/// Turns hook events into session reports: the state machine of section 6 of the hooks reference.
///
/// Turn boundaries (SessionStart, UserPromptSubmit, Stop, StopFailure, SessionEnd) only come from the
/// main thread. Tool and permission events may come from a subagent (`agent_id`): those never flip
/// `busy` or `unread` (a background subagent working after Stop must not make the session "Working"
/// again), and one session id is one session, so a subagent never counts twice.
public enum HookReducer {
    /// Applies `event` to the session's state (nil: never seen) and returns what to deliver.
    public static func reduce(_ state: inout HookSessionState?, _ event: HookEvent, host: HostID) -> [HookEffect] {
        guard changesReport(event) else { return [] }
        var session = state ?? .fresh(for: event, host: host)
        apply(event, to: &session)
        if let title = event.sessionTitle, session.titleSource != .claude || session.report.title != title {
            session.report.title = title
            session.titleSource = .claude
        }
        var effects: [HookEffect] = []
        if session.report != session.lastQueued {
            session.lastQueued = session.report
            effects.append(.putReport(SpooledReport(sid: SessionID(event.sessionID), report: session.report)))
        }
        state = session
        return effects
    }

    /// Whether the event can change a report; unknown and purely informational events cannot.
    static func changesReport(_ event: HookEvent) -> Bool {
        switch event.name {
        case .unknown, .subagentStart, .subagentStop: false
        default: true
        }
    }

    static func apply(_ event: HookEvent, to session: inout HookSessionState) {
        let agent = event.agentID
        switch event.name {
        case .sessionStart:
            startSession(event, &session)
        case .userPromptSubmit:
            session.report.busy = true
            session.report.unread = false
            session.report.blocked = false
            session.report.step = nil
            session.setPrompt(nil, raisedBy: nil)
            if session.titleSource == .folder, let title = event.prompt.flatMap({ ShortText.firstLine($0, limit: ShortText.titleLimit) }) {
                session.report.title = title
                session.titleSource = .firstPrompt
            }
        case .preToolUse:
            let tool = event.toolName ?? "tool"
            session.clearPrompt(ownedBy: agent)
            if tool == "AskUserQuestion" || tool == "ExitPlanMode" {
                // These tools are themselves the wait: the dialog shows as the tool starts.
                session.setPrompt(PromptText.forPermission(tool: tool, input: event.toolInput, asking: event.askedQuestion), raisedBy: agent)
            }
            if agent == nil {
                session.report.busy = true
                session.report.unread = false
                session.report.blocked = false  // a paused turn that resumed by itself
            }
            if session.report.busy { session.report.step = StepText.describe(tool: tool, input: event.toolInput) }
        case .postToolUse, .postToolUseFailure, .permissionDenied:
            // A tool that ran (or was refused) answered whatever its prompt asked.
            session.clearPrompt(ownedBy: agent)
            if agent == nil { session.report.busy = true }
        case .permissionRequest:
            let tool = event.toolName ?? "tool"
            session.setPrompt(PromptText.forPermission(tool: tool, input: event.toolInput, asking: event.askedQuestion), raisedBy: agent)
            if agent == nil { session.report.busy = true }
        case .notification:
            notify(event, &session)
        case .elicitation:
            let text = event.message.flatMap { ShortText.firstLine($0, limit: ShortText.promptLimit) }
            session.setPrompt(Prompt(kind: .question, text: text ?? "An MCP server needs your input"), raisedBy: agent)
        case .elicitationResult:
            if session.report.prompt?.kind == .question { session.setPrompt(nil, raisedBy: nil) }
        case .stop:
            endTurn(&session, step: event.backgroundWork > 0 ? "Waiting on background work" : nil)
        case .stopFailure:
            endTurn(&session, step: nil)
            TurnFailure.apply(event.error, to: &session)
        case .sessionEnd:
            session.report.archived = true
            session.report.busy = false
            session.report.step = nil
            session.setPrompt(nil, raisedBy: nil)
        case .preCompact:
            session.report.step = "Compacting the conversation"
        case .subagentStart, .subagentStop, .unknown:
            break
        }
    }

    static func startSession(_ event: HookEvent, _ session: inout HookSessionState) {
        session.report.archived = false
        if let cwd = event.cwd { session.report.cwd = cwd }
        // Compaction continues the same turn; every other start waits for the user's first prompt.
        guard event.source != "compact" else { return }
        session.report.busy = false
        session.report.blocked = false
        session.report.unread = false
        session.report.step = nil
        session.setPrompt(nil, raisedBy: nil)
        if event.source == "clear", session.titleSource == .firstPrompt {
            session.report.title = HookSessionState.folderTitle(session.report.cwd)
            session.titleSource = .folder
        }
    }

    static func notify(_ event: HookEvent, _ session: inout HookSessionState) {
        if event.notificationType == "quota_auto_resume_fired" {
            // The usage limit lifted and Claude Code resumed the paused turn itself.
            session.report.blocked = false
            session.report.busy = true
            return
        }
        if event.notificationType == "idle_prompt" {
            // Claude has waited ~60 s for input. This heals a turn that ended without Stop (the user
            // pressed Esc, possibly at a permission dialog): nothing is running and nothing is asked.
            session.report.busy = false
            session.report.step = nil
            session.setPrompt(nil, raisedBy: nil)
            return
        }
        if let type = event.notificationType, PromptText.answeredNotificationTypes.contains(type) {
            if session.report.prompt?.kind == .question { session.setPrompt(nil, raisedBy: nil) }
            return
        }
        // The notification comes ~6 s after the request; a PermissionRequest already said it better.
        guard session.report.prompt == nil,
            let prompt = PromptText.forNotification(type: event.notificationType, message: event.message)
        else { return }
        session.setPrompt(prompt, raisedBy: event.agentID)
    }

    static func endTurn(_ session: inout HookSessionState, step: String?) {
        session.report.busy = false
        session.report.blocked = false
        session.report.unread = true
        session.report.step = step
        session.setPrompt(nil, raisedBy: nil)
    }
}
