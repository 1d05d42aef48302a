import FleetCore

/// Codex CLI (`lfg hook --agent codex`): its hooks send Claude Code's field names for the events
/// they share (see docs/codex-hooks.md for the sources), so the adapter keeps only Codex's own events
/// and names what differs.
///
/// - Events: `SessionStart` (`source` startup/resume/clear/compact), `UserPromptSubmit` (`prompt`),
///   `PreToolUse` / `PostToolUse` (`tool_name`, `tool_input.command`), `PermissionRequest`
///   (`tool_name` `Bash` or `NetworkAccess`, `tool_input.command` and `description`), `Stop`,
///   `StopFailure` (`error`), `PreCompact`; `SubagentStart` / `SubagentStop` and `PostCompact` change nothing.
/// - Codex has no `SessionEnd` and no `Notification`: a session stays listed, idle, after its last turn.
public struct CodexAdapter: AgentAdapter {
    public init() {}
    public var name: String { "codex" }
    public var displayName: String { "Codex" }
    /// Codex's `PermissionRequest` takes the decision Claude Code's does, minus `updatedPermissions`
    /// (Codex has no `permission_suggestions`, so the phone never offers "Always allow"): see
    /// docs/codex-hooks.md, "Output".
    public var answersFromPhone: Bool { true }

    /// The six events every current Codex has. `StopFailure` is newer: an older Codex might refuse a
    /// hooks file naming it, so it is read when a user adds it but never installed.
    public var installedEvents: [String] {
        ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop"]
    }

    /// Events Codex sends that LFG reads under the same name.
    static let events: Set<String> = [
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop", "StopFailure",
        "PreCompact", "SubagentStart", "SubagentStop",
    ]

    /// Codex's tool names as a person reads them in a step or a permission prompt.
    static let toolNames = ["NetworkAccess": "Network access"]

    /// `$CODEX_HOME/hooks.json`, else `~/.codex/hooks.json`.
    public func defaultConfigurationPath(environment: [String: String]) -> String {
        if let folder = environment["CODEX_HOME"], !folder.isEmpty { return folder + "/hooks.json" }
        return (environment["HOME"] ?? ".") + "/.codex/hooks.json"
    }

    /// Codex runs a hook it does not manage only after the person trusts it once in `/hooks`; and a
    /// `[hooks]` table in the `config.toml` beside the file is loaded too (Codex warns about both).
    public func installNotes(configurationPath: String, readFile: (String) -> String?) -> [String] {
        var notes = ["Codex runs these hooks only once you trust them: start Codex, open /hooks and trust LFG's entries (once)."]
        let toml = String(configurationPath.reversed().drop { $0 != "/" }.reversed()) + "config.toml"
        if let text = readFile(toml), Self.hasHooksTable(text) {
            notes.append("\(toml) also has [hooks]: Codex loads both and warns; LFG never edits config.toml, so keep LFG's hooks in one place.")
        }
        return notes
    }

    /// Whether TOML text declares a `[hooks…]` or `[[hooks…]]` table.
    static func hasHooksTable(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.drop { $0 == "[" }
            return line.drop { $0 == " " || $0 == "\t" }.hasPrefix("[") && (trimmed.hasPrefix("hooks]") || trimmed.hasPrefix("hooks."))
        }
    }

    public func event(from root: JSONValue) throws(HookInputError) -> HookEvent {
        var event = try HookEvent.decode(root: root)
        let name = root["hook_event_name"]?.stringValue ?? ""
        // A name Codex does not send means nothing from Codex, even when Claude Code uses it.
        if !Self.events.contains(name) { event.name = .unknown(name) }
        if let tool = event.toolName, let readable = Self.toolNames[tool] { event.toolName = readable }
        return event
    }
}
