import FleetCore

/// What the hook remembers about one session between calls (kept on disk, one file per session).
public struct HookSessionState: Hashable, Sendable, Codable {
    /// Where the title came from: it follows the project folder until a prompt (or Claude) names the session.
    public enum TitleSource: String, Hashable, Sendable, Codable {
        case folder, firstPrompt, claude
    }

    /// The session's report as the hook sees it now.
    public var report: SessionReport
    public var titleSource: TitleSource
    /// The `agent_id` that raised the pending prompt (nil: the main thread), so only its own
    /// follow-up answers it and a subagent's tool call never clears the main thread's prompt.
    public var promptAgentID: String?
    /// The last report queued for delivery; an event that changes nothing sends nothing.
    public var lastQueued: SessionReport?

    public init(
        report: SessionReport, titleSource: TitleSource = .folder, promptAgentID: String? = nil,
        lastQueued: SessionReport? = nil
    ) {
        self.report = report
        self.titleSource = titleSource
        self.promptAgentID = promptAgentID
        self.lastQueued = lastQueued
    }

    /// A session first seen through `event`: idle, titled by Claude's own title or the project folder.
    public static func fresh(for event: HookEvent, host: HostID) -> HookSessionState {
        let cwd = event.cwd ?? ""
        if let title = event.sessionTitle {
            return HookSessionState(report: SessionReport(title: title, host: host, cwd: cwd), titleSource: .claude)
        }
        return HookSessionState(report: SessionReport(title: folderTitle(cwd), host: host, cwd: cwd))
    }

    /// The project folder's name, the title of a session nobody has prompted yet.
    static func folderTitle(_ cwd: String) -> String {
        ShortText.lastComponent(cwd) ?? "Claude Code"
    }

    mutating func setPrompt(_ prompt: Prompt?, raisedBy agentID: String?) {
        report.prompt = prompt
        promptAgentID = prompt == nil ? nil : agentID
    }

    /// Clears the pending prompt when `agentID` (nil: main thread) raised it.
    mutating func clearPrompt(ownedBy agentID: String?) {
        guard report.prompt != nil, promptAgentID == agentID else { return }
        setPrompt(nil, raisedBy: nil)
    }
}
