import FleetCore

/// LFG's entries in an agent's hook configuration (Claude Code's settings and Codex's hooks.json share
/// the shape `{"hooks": {Event: [{"matcher"?, "hooks": [handler]}]}}`), added and removed as pure JSON
/// transformations.
///
/// LFG's handler is recognised by its command: `<path ending in /lfg or lfg> hook [--agent NAME]`, or the
/// cheap start `<path ending in /lfg-hook or lfg-hook> [--agent NAME]` (see docs/hook-fast-path.md).
/// Install adds one matcher group `{"hooks": [handler]}` to each event the agent's adapter subscribes
/// to (no matcher: every tool, every notification); everything else in the document, the user's own
/// hooks included, stays as it was.
public struct HookSettingsEditor: Sendable {
    /// The shell command the agent runs, e.g. `/usr/local/bin/lfg hook --agent codex`.
    public var command: String
    /// The events LFG's handler goes on.
    public var events: [String]
    /// Seconds the agent waits for the handler; the hook bounds itself far below it.
    public static let handlerTimeout = 5
    /// The events whose hook may wait for the phone's answer (contract 8.2).
    public static let answeringEvents: Set<String> = [
        HookEventName.permissionRequest.rawValue, HookEventName.preToolUse.rawValue,
    ]
    /// The `timeout` of the answering events' handler: above the longest wait for the phone, so Claude
    /// Code never kills a hook about to print its decision; nil when the hook never waits.
    public var answerTimeout: Int?

    /// An editor whose handler runs the `lfg` executable at `executablePath` for `agent`'s events, or,
    /// when `fastStartPath` names `lfg-hook` (beside that `lfg`), the cheap start.
    public init(
        executablePath: String, fastStartPath: String? = nil, agent: any AgentAdapter = AgentAdapters.default,
        answerTimeout: Int? = nil
    ) {
        let program = fastStartPath.map { [Self.shellQuoted($0)] } ?? [Self.shellQuoted(executablePath), "hook"]
        command = (program + agent.hookArguments).joined(separator: " ")
        events = agent.installedEvents
        self.answerTimeout = answerTimeout
    }

    /// LFG's handler object.
    public var handler: JSONValue { handler(timeout: Self.handlerTimeout) }

    /// LFG's matcher group for one event.
    public var group: JSONValue { .object(["hooks": .array([handler])]) }

    /// LFG's matcher group for `event`: the answering events get ``answerTimeout`` when it is set.
    public func group(for event: String) -> JSONValue {
        guard let answerTimeout, Self.answeringEvents.contains(event) else { return group }
        return .object(["hooks": .array([handler(timeout: max(answerTimeout, Self.handlerTimeout))])])
    }

    func handler(timeout: Int) -> JSONValue {
        .object(["type": .string("command"), "command": .string(command), "timeout": .number("\(timeout)")])
    }

    /// `settings` with LFG's handler on every mapped event, exactly once; a document that already
    /// has exactly that comes back unchanged. Throws when the document's shape leaves no place for hooks.
    public func install(into settings: JSONValue) throws(SettingsShapeError) -> JSONValue {
        guard var root = settings.objectValue else {
            throw SettingsShapeError("the file holds \(settings.kindName), not a JSON object")
        }
        var hooks = JSONObject()
        if let existing = root["hooks"] {
            guard let object = existing.objectValue else {
                throw SettingsShapeError("\"hooks\" is \(existing.kindName), not an object")
            }
            hooks = object
        }
        for event in events {
            var groups: [JSONValue] = []
            if let existing = hooks[event] {
                guard let array = existing.arrayValue else {
                    throw SettingsShapeError("\"hooks.\(event)\" is \(existing.kindName), not an array")
                }
                groups = array
            }
            let others = Self.removingLFG(from: groups)
            let group = group(for: event)
            let isInstalledExactly = groups.filter { $0 == group }.count == 1 && others.count == groups.count - 1
            if !isInstalledExactly { hooks[event] = .array(others + [group]) }
        }
        root["hooks"] = .object(hooks)
        return .object(root)
    }

    /// `settings` without any LFG handler. Groups and event keys left empty by the removal go too,
    /// and so does `hooks` when nothing else is in it; malformed parts LFG did not write are left alone.
    public static func uninstall(from settings: JSONValue) -> JSONValue {
        guard var root = settings.objectValue, var hooks = root["hooks"]?.objectValue else { return settings }
        var changed = false
        for member in hooks.members {
            guard let groups = member.value.arrayValue else { continue }
            let kept = removingLFG(from: groups)
            guard kept != groups else { continue }
            changed = true
            hooks[member.key] = kept.isEmpty ? nil : .array(kept)
        }
        guard changed else { return settings }
        root["hooks"] = hooks.isEmpty ? nil : .object(hooks)
        return .object(root)
    }

    /// `groups` without LFG's handlers; a group that held only LFG handlers disappears.
    static func removingLFG(from groups: [JSONValue]) -> [JSONValue] {
        groups.compactMap { group in
            guard var object = group.objectValue, let handlers = object["hooks"]?.arrayValue else { return group }
            let kept = handlers.filter { !isLFGHandler($0) }
            guard kept.count != handlers.count else { return group }
            guard !kept.isEmpty else { return nil }
            object["hooks"] = .array(kept)
            return .object(object)
        }
    }

    /// The cheap start's executable name, installed beside `lfg`.
    public static let fastStartName = "lfg-hook"

    /// Whether `handler` runs `lfg hook` or `lfg-hook` for any agent (any path, quoted or not).
    public static func isLFGHandler(_ handler: JSONValue) -> Bool {
        guard handler["type"]?.stringValue == "command", let command = handler["command"]?.stringValue else {
            return false
        }
        guard let (program, rest) = splitFirstWord(command.trimmingWhitespace()) else { return false }
        let words = rest.split(whereSeparator: \.isWhitespace)
        func runs(_ name: String) -> Bool { program == name || program.hasSuffix("/" + name) }
        let agentArguments = { (words: ArraySlice<Substring>) in words.isEmpty || (words.count == 2 && words.first == "--agent") }
        return (runs("lfg") && words.first == "hook" && agentArguments(words.dropFirst()))
            || (runs(Self.fastStartName) && agentArguments(words[...]))
    }

    /// The first shell word (single or double quotes removed) and the text after it.
    static func splitFirstWord(_ command: String) -> (String, Substring)? {
        guard let first = command.first else { return nil }
        if first == "'" || first == "\"" {
            let body = command.dropFirst()
            guard let close = body.firstIndex(of: first) else { return nil }
            return (String(body[..<close]), body[body.index(after: close)...])
        }
        let end = command.firstIndex(where: \.isWhitespace) ?? command.endIndex
        return (String(command[..<end]), command[end...])
    }

    /// `path` as one shell word: unchanged when plain, single-quoted otherwise.
    static func shellQuoted(_ path: String) -> String {
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+@%:,".unicodeScalars.contains($0))
        }
        if plain { return path }
        return "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

/// A settings document whose shape leaves no place for LFG's hooks.
public struct SettingsShapeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
