import FleetCore
/// One Claude Code hook event, read leniently: unknown events and fields are ignored, and a field
/// of the wrong type reads as absent, because a newer Claude Code must never make the hook fail.
public struct HookEvent: Hashable, Sendable {
    /// `hook_event_name`, e.g. `PreToolUse`; unknown names are kept as they are.
    public var name: HookEventName
    /// `session_id`: the session the event belongs to (subagents share their parent's).
    public var sessionID: String
    /// `cwd`: the session's current directory.
    public var cwd: String?
    /// `agent_id`: present only inside a subagent, which separates its traffic from the main thread.
    public var agentID: String?
    /// `prompt` of UserPromptSubmit.
    public var prompt: String?
    /// `session_title`, when Claude Code names the session itself.
    public var sessionTitle: String?
    /// `tool_name` of tool events.
    public var toolName: String?
    /// `tool_input` of tool events (an object; null when absent).
    public var toolInput: JSONValue
    /// `tool_use_id` of tool events (not on PermissionRequest).
    public var toolUseID: String?
    /// `notification_type` of Notification (absent on older Claude Code).
    public var notificationType: String?
    /// `message` of Notification and Elicitation.
    public var message: String?
    /// `source` of SessionStart (`startup`, `resume`, `clear`, `compact`, `fork`).
    public var source: String?
    /// `error` of StopFailure (`rate_limit`, ...).
    public var error: String?
    /// How many `background_tasks` and `session_crons` a Stop names: work that will wake the session.
    public var backgroundWork: Int
    /// `permission_suggestions` of PermissionRequest: what "always allow" may persist.
    public var permissionSuggestions: [JSONValue]
    /// The question this event asks the phone (set by `lfg hook` before recording; not a Claude Code field).
    public var askedQuestion: AskedQuestion?

    public init(
        name: HookEventName, sessionID: String, cwd: String? = nil, agentID: String? = nil, prompt: String? = nil,
        sessionTitle: String? = nil, toolName: String? = nil, toolInput: JSONValue = .null, toolUseID: String? = nil,
        notificationType: String? = nil, message: String? = nil, source: String? = nil, error: String? = nil,
        backgroundWork: Int = 0, permissionSuggestions: [JSONValue] = [], askedQuestion: AskedQuestion? = nil
    ) {
        self.name = name
        self.sessionID = sessionID
        self.cwd = cwd
        self.agentID = agentID
        self.prompt = prompt
        self.sessionTitle = sessionTitle
        self.toolName = toolName
        self.toolInput = toolInput
        self.toolUseID = toolUseID
        self.notificationType = notificationType
        self.message = message
        self.source = source
        self.error = error
        self.backgroundWork = backgroundWork
        self.permissionSuggestions = permissionSuggestions
        self.askedQuestion = askedQuestion
    }

    /// Whether a subagent (not the main thread) raised the event.
    public var isFromSubagent: Bool { agentID != nil }

    /// Whether this event can hold the agent for the phone's answer (contract 8.2): a `PermissionRequest`,
    /// or a `PreToolUse` of AskUserQuestion or ExitPlanMode. Such events always take `lfg hook`'s full
    /// path; `PhoneQuestion` decides, among them, which ask a question.
    public var mayWaitForPhone: Bool {
        switch (name, toolName) {
        case (.permissionRequest, _), (.preToolUse, "AskUserQuestion"), (.preToolUse, "ExitPlanMode"): true
        default: false
        }
    }

    /// Reads one event from the hook's stdin.
    ///
    /// Throws only when the text is not a JSON object or carries no `session_id`: without a session
    /// there is nothing to report.
    public static func decode(_ text: String) throws(HookInputError) -> HookEvent {
        try ClaudeCodeAdapter().event(from: text)
    }

    /// Reads one event from its parsed JSON (see ``decode(_:)``).
    public static func decode(root: JSONValue) throws(HookInputError) -> HookEvent {
        guard case .object = root else {
            throw HookInputError("the hook input is \(root.kindName), not a JSON object")
        }
        guard let sessionID = root["session_id"]?.stringValue.nonEmpty else {
            throw HookInputError("the hook input has no session_id, so it names no session to report")
        }
        let background = (root["background_tasks"]?.arrayValue?.count ?? 0) + (root["session_crons"]?.arrayValue?.count ?? 0)
        return HookEvent(
            name: HookEventName(rawValue: root["hook_event_name"]?.stringValue ?? ""),
            sessionID: sessionID,
            cwd: root["cwd"]?.stringValue.nonEmpty,
            agentID: root["agent_id"]?.stringValue.nonEmpty,
            prompt: root["prompt"]?.stringValue,
            sessionTitle: root["session_title"]?.stringValue.nonEmpty,
            toolName: root["tool_name"]?.stringValue.nonEmpty,
            toolInput: root["tool_input"] ?? .null,
            toolUseID: root["tool_use_id"]?.stringValue.nonEmpty,
            notificationType: root["notification_type"]?.stringValue.nonEmpty,
            message: root["message"]?.stringValue.nonEmpty,
            source: root["source"]?.stringValue.nonEmpty,
            error: root["error"]?.stringValue.nonEmpty,
            backgroundWork: background,
            permissionSuggestions: root["permission_suggestions"]?.arrayValue ?? [],
            askedQuestion: AskedQuestion(json: root[AskedQuestion.recordKey])
        )
    }
}

/// Why a hook input could not be read.
public struct HookInputError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The events the adapter maps; any other name is ``unknown(_:)`` and changes nothing.
public enum HookEventName: Hashable, Sendable {
    case sessionStart, userPromptSubmit, preToolUse, postToolUse, postToolUseFailure, permissionRequest
    case permissionDenied, notification, stop, stopFailure, sessionEnd, elicitation, elicitationResult
    case preCompact, subagentStart, subagentStop
    case unknown(String)

    static let known: [String: HookEventName] = [
        "SessionStart": .sessionStart, "UserPromptSubmit": .userPromptSubmit, "PreToolUse": .preToolUse,
        "PostToolUse": .postToolUse, "PostToolUseFailure": .postToolUseFailure,
        "PermissionRequest": .permissionRequest, "PermissionDenied": .permissionDenied,
        "Notification": .notification, "Stop": .stop, "StopFailure": .stopFailure, "SessionEnd": .sessionEnd,
        "Elicitation": .elicitation, "ElicitationResult": .elicitationResult, "PreCompact": .preCompact,
        "SubagentStart": .subagentStart, "SubagentStop": .subagentStop,
    ]

    public init(rawValue: String) { self = Self.known[rawValue] ?? .unknown(rawValue) }

    /// The Claude Code name, e.g. `PreToolUse`.
    public var rawValue: String {
        if case .unknown(let name) = self { return name }
        return Self.known.first { $0.value == self }?.key ?? ""
    }

    /// The events `lfg hooks install` subscribes to: every one that changes a report.
    public static let installed: [HookEventName] = [
        .sessionStart, .userPromptSubmit, .preToolUse, .postToolUse, .postToolUseFailure, .permissionRequest,
        .permissionDenied, .notification, .stop, .stopFailure, .sessionEnd, .elicitation, .elicitationResult,
        .preCompact,
    ]
}

extension Optional<String> {
    /// The string, or nil when it is nil or empty.
    package var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
