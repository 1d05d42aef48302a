import Foundation
import HookAdapter

/// `lfg hooks install`: adds LFG's handler to an agent's hook configuration, idempotently, with a backup.
public struct HooksInstallCommand: Command {
    public static let name = "hooks install"
    public static let summary = "add LFG's hooks to Claude Code's settings (or Codex's hooks.json)"
    public static let usage = """
        Usage: lfg hooks install [--agent claude|codex] [--settings FILE] [--lfg PATH] [--answer-policy P] [--answer-wait S]

        Adds `lfg hook` (or, when `lfg-hook` sits beside lfg, that cheap start) to every event LFG maps, in FILE (default for Claude Code: $CLAUDE_CONFIG_DIR/settings.json,
        else ~/.claude/settings.json; for Codex: $CODEX_HOME/hooks.json, else ~/.codex/hooks.json). Keeps every
        other setting and hook; backs the file up first (FILE.lfg-backup-<time>); running it again changes
        nothing. A file that is not valid JSON is refused.
          --agent NAME  the agent whose hooks to edit (default: claude)
          --lfg PATH    the lfg executable the hook runs (default: this one)
          --answer-policy always|never|idle:N   when the hook waits for the phone's answer (default idle:60)
          --answer-wait S   the longest wait in seconds (default 300)
        Both are saved as LFG_ANSWER_POLICY / LFG_ANSWER_WAIT_S in $LFG_HOME/.env; the PermissionRequest and
        PreToolUse handlers get a `timeout` 30 s above the wait, so Claude Code never cuts a decision short.
        Codex runs a hook only after you trust it once: open Codex and review it in /hooks.
        """

    let settingsPath: String?
    let executablePath: String?
    let agent: any AgentAdapter
    let answerPolicy: AnswerPolicy?
    let answerWait: Double?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        settingsPath = try arguments.value("--settings")
        executablePath = try arguments.value("--lfg")
        agent = try HookSettingsLocation.agent(try arguments.value("--agent"))
        if let text = try arguments.value("--answer-policy") {
            guard let policy = AnswerPolicy(text: text) else {
                throw UsageError("--answer-policy takes always, never or idle:N (seconds), not '\(text)'")
            }
            answerPolicy = policy
        } else {
            answerPolicy = nil
        }
        answerWait = try arguments.integer("--answer-wait", in: 0...Int(AnswerSettings.maximumWaitSeconds)).map(Double.init)
        if !agent.answersFromPhone, answerPolicy != nil || answerWait != nil {
            throw UsageError("--answer-policy and --answer-wait apply to agents that wait for the phone's answer (claude), not \(agent.name)")
        }
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let path = settingsPath ?? agent.defaultConfigurationPath(environment: context.environment)
        let executable = try executablePath.map(HookSettingsLocation.checkedExecutable) ?? HookSettingsLocation.currentExecutable()
        let answering = agent.answersFromPhone
            ? try HookAnswerSetup.save(policy: answerPolicy, wait: answerWait, environment: context.environment) : nil
        let waits = answering.map { $0.policy != .never } ?? false
        let editor = HookSettingsEditor(
            executablePath: executable, fastStartPath: HookSettingsLocation.fastStart(besides: executable), agent: agent,
            answerTimeout: waits ? answering?.hookTimeoutSeconds : nil)
        let outcome: SettingsFile.Outcome
        do {
            outcome = try SettingsFile.edit(path, now: Date().timeIntervalSince1970, transform: editor.install)
        } catch {
            throw CommandFailure(error.message)
        }
        if outcome.changed {
            let backup = outcome.backupPath.map { " (backup: \($0))" } ?? ""
            context.write("Added `\(editor.command)` to \(agent.displayName)'s hooks in \(outcome.path)\(backup).\n")
        } else {
            context.write("LFG's hooks are already in \(outcome.path); nothing changed.\n")
        }
        if let answering {
            context.write(answering.policy == .never
                ? "The hook never waits for the phone (answer policy never).\n"
                : "The hook waits for the phone's answer up to \(Int(answering.waitSeconds)) s (policy \(answering.policy)).\n")
        }
        let notes = agent.installNotes(configurationPath: outcome.path) { path in
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
        for note in notes { context.writeError("note: \(note)\n") }
        let home = HookConfiguration.resolve(environment: context.environment) { _ in nil }.home
        if HookSettingsLocation.fastStart(besides: executable) != nil, !HostDoorbell(home: home).isListening() {
            // Without a host each hook delivers its own session (a whole `lfg` process per event), which
            // blows the 0.5 s budget once ten or more hooks run at once (README, "Bursts").
            context.writeError(
                "note: no `lfg host` is listening in \(home); run `lfg host install` so bursts of hooks stay within their time budget and a dead agent leaves the card.\n")
        }
        if outcome.document["disableAllHooks"]?.boolValue == true {
            context.writeError("note: \(outcome.path) sets disableAllHooks, so Claude Code runs no hooks until it is false.\n")
        }
        return 0
    }
}

/// Where the running `lfg` lives, for the handler's command, and which agent `--agent` names.
enum HookSettingsLocation {
    /// The adapter `--agent name` names (nil: the default); an unknown name is a usage error listing the known ones.
    static func agent(_ name: String?) throws(UsageError) -> any AgentAdapter {
        guard let name else { return AgentAdapters.default }
        guard let adapter = AgentAdapters.named(name) else {
            throw UsageError("--agent \(name): unknown agent; known: \(AgentAdapters.names)")
        }
        return adapter
    }

    /// `lfg-hook` beside the `lfg` at `executable`, when it is there (the handler then runs it: a cheap
    /// start, see docs/hook-fast-path.md); nil otherwise, and the handler runs `lfg hook`.
    static func fastStart(besides executable: String) -> String? {
        let path = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent(HookSettingsEditor.fastStartName).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func currentExecutable() -> String {
        Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? "lfg"
    }

    /// `--lfg PATH` made absolute (Claude Code runs hooks from the session's folder), refused by name
    /// unless it is an executable file: a wrong path would make every hook fail silently later.
    static func checkedExecutable(_ path: String) throws(CommandFailure) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder) else {
            throw CommandFailure("--lfg \(path): no such file; give the path of the lfg executable (e.g. .build/release/lfg)")
        }
        guard !isFolder.boolValue, FileManager.default.isExecutableFile(atPath: absolute) else {
            throw CommandFailure("--lfg \(path): not an executable file; give the path of the lfg executable")
        }
        return absolute
    }
}
