import Foundation
import HookAdapter

/// `lfg hooks install`: adds LFG's handler to Claude Code's settings, idempotently, with a backup.
public struct HooksInstallCommand: Command {
    public static let name = "hooks install"
    public static let summary = "add LFG's hooks to Claude Code's settings"
    public static let usage = """
        Usage: lfg hooks install [--settings FILE] [--lfg PATH] [--answer-policy P] [--answer-wait S]

        Adds `lfg hook` to every Claude Code event LFG maps, in FILE (default: $CLAUDE_CONFIG_DIR/settings.json,
        else ~/.claude/settings.json). Keeps every other setting and hook; backs the file up first
        (FILE.lfg-backup-<time>); running it again changes nothing. A file that is not valid JSON is refused.
          --lfg PATH   the lfg executable the hook runs (default: this one)
          --answer-policy always|never|idle:N   when the hook waits for the phone's answer (default idle:60)
          --answer-wait S   the longest wait in seconds (default 300)
        Both are saved as LFG_ANSWER_POLICY / LFG_ANSWER_WAIT_S in $LFG_HOME/.env; the PermissionRequest and
        PreToolUse handlers get a `timeout` 30 s above the wait, so Claude Code never cuts a decision short.
        """

    let settingsPath: String?
    let executablePath: String?
    let answerPolicy: AnswerPolicy?
    let answerWait: Double?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        settingsPath = try arguments.value("--settings")
        executablePath = try arguments.value("--lfg")
        if let text = try arguments.value("--answer-policy") {
            guard let policy = AnswerPolicy(text: text) else {
                throw UsageError("--answer-policy takes always, never or idle:N (seconds), not '\(text)'")
            }
            answerPolicy = policy
        } else {
            answerPolicy = nil
        }
        answerWait = try arguments.integer("--answer-wait", in: 0...Int(AnswerSettings.maximumWaitSeconds)).map(Double.init)
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let path = settingsPath ?? SettingsFile.defaultPath(environment: context.environment)
        let executable = try executablePath.map(HookSettingsLocation.checkedExecutable) ?? HookSettingsLocation.currentExecutable()
        let answering = try HookAnswerSetup.save(policy: answerPolicy, wait: answerWait, environment: context.environment)
        let editor = HookSettingsEditor(
            executablePath: executable, answerTimeout: answering.policy == .never ? nil : answering.hookTimeoutSeconds)
        let outcome: SettingsFile.Outcome
        do {
            outcome = try SettingsFile.edit(path, now: Date().timeIntervalSince1970, transform: editor.install)
        } catch {
            throw CommandFailure(error.message)
        }
        if outcome.changed {
            let backup = outcome.backupPath.map { " (backup: \($0))" } ?? ""
            context.write("Added `\(editor.command)` to Claude Code's hooks in \(outcome.path)\(backup).\n")
        } else {
            context.write("LFG's hooks are already in \(outcome.path); nothing changed.\n")
        }
        context.write(answering.policy == .never
            ? "The hook never waits for the phone (answer policy never).\n"
            : "The hook waits for the phone's answer up to \(Int(answering.waitSeconds)) s (policy \(answering.policy)).\n")
        if outcome.document["disableAllHooks"]?.boolValue == true {
            context.writeError("note: \(outcome.path) sets disableAllHooks, so Claude Code runs no hooks until it is false.\n")
        }
        return 0
    }
}

/// Where the running `lfg` lives, for the handler's command.
enum HookSettingsLocation {
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
