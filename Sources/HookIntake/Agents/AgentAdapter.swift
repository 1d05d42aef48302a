import FleetCore

/// One coding agent whose hooks LFG reads: how its hook input becomes the common ``HookEvent`` (which
/// ``HookReducer`` turns into reports), and where and for which events its hooks are installed.
///
/// Another agent is one new file conforming to this protocol plus an entry in ``AgentAdapters/all``.
public protocol AgentAdapter: Sendable {
    /// The `--agent` value, e.g. `codex`.
    var name: String { get }
    /// How people call it in messages, e.g. `Codex`.
    var displayName: String { get }
    /// The events `lfg hooks install` subscribes to, by the agent's own names.
    var installedEvents: [String] { get }
    /// The hook configuration file `lfg hooks install` edits by default.
    func defaultConfigurationPath(environment: [String: String]) -> String
    /// Reads one hook input (the parsed JSON on stdin) as the common event; throws when it names no session.
    func event(from root: JSONValue) throws(HookInputError) -> HookEvent
    /// What the person must know after an install into `configurationPath` (a one-time step, another
    /// file that also holds hooks); `readFile` reads a path's text, nil when missing.
    func installNotes(configurationPath: String, readFile: (String) -> String?) -> [String]
    /// Whether `lfg hook` may wait for the phone's answer and print the agent's decision (contract 8.2):
    /// only for an agent whose decision format LFG speaks.
    var answersFromPhone: Bool { get }
}

extension AgentAdapter {
    public var answersFromPhone: Bool { false }

    public func installNotes(configurationPath: String, readFile: (String) -> String?) -> [String] { [] }

    /// The arguments after `lfg hook` in an installed handler: none for the default agent.
    public var hookArguments: [String] { name == AgentAdapters.default.name ? [] : ["--agent", name] }

    /// Reads one hook input text as the common event.
    public func event(from text: String) throws(HookInputError) -> HookEvent {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw HookInputError("the hook input is not JSON (\(error)); \(displayName) sends one JSON object on stdin")
        }
        return try event(from: root)
    }
}

/// Every agent LFG reads, by `--agent` name.
public enum AgentAdapters {
    /// The agents, the default first.
    public static let all: [any AgentAdapter] = [ClaudeCodeAdapter(), CodexAdapter()]
    /// The agent `lfg hook` reads without `--agent`.
    public static let `default`: any AgentAdapter = ClaudeCodeAdapter()

    /// The adapter called `name`, or nil.
    public static func named(_ name: String) -> (any AgentAdapter)? {
        all.first { $0.name == name }
    }

    /// The names `--agent` takes, for messages.
    public static var names: String { all.map(\.name).joined(separator: ", ") }
}

/// Claude Code: its hook input is what ``HookEvent`` reads natively.
public struct ClaudeCodeAdapter: AgentAdapter {
    public init() {}
    public var name: String { "claude" }
    public var displayName: String { "Claude Code" }
    public var installedEvents: [String] { HookEventName.installed.map(\.rawValue) }
    public var answersFromPhone: Bool { true }

    /// `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`.
    public func defaultConfigurationPath(environment: [String: String]) -> String {
        if let folder = environment["CLAUDE_CONFIG_DIR"], !folder.isEmpty { return folder + "/settings.json" }
        return (environment["HOME"] ?? ".") + "/.claude/settings.json"
    }

    public func event(from root: JSONValue) throws(HookInputError) -> HookEvent {
        try HookEvent.decode(root: root)
    }
}
