import Foundation
import HookAdapter

/// `lfg hooks uninstall`: removes LFG's handlers from an agent's hook configuration, with a backup.
public struct HooksUninstallCommand: Command {
    public static let name = "hooks uninstall"
    public static let summary = "remove LFG's hooks from Claude Code's settings (or Codex's hooks.json)"
    public static let usage = """
        Usage: lfg hooks uninstall [--agent claude|codex] [--settings FILE]

        Removes every `lfg hook` handler from FILE (default: the agent's file, as for install), keeping
        everything else; backs the file up first. A file that is not valid JSON is refused.
        """

    let settingsPath: String?
    let agent: any AgentAdapter

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        settingsPath = try arguments.value("--settings")
        agent = try HookSettingsLocation.agent(try arguments.value("--agent"))
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let path = settingsPath ?? agent.defaultConfigurationPath(environment: context.environment)
        let outcome: SettingsFile.Outcome
        do {
            outcome = try SettingsFile.edit(path, now: Date().timeIntervalSince1970) { settings in
                HookSettingsEditor.uninstall(from: settings)
            }
        } catch {
            throw CommandFailure(error.message)
        }
        if outcome.changed {
            let backup = outcome.backupPath.map { " (backup: \($0))" } ?? ""
            context.write("Removed LFG's hooks from \(outcome.path)\(backup).\n")
        } else {
            context.write("No LFG hooks in \(outcome.path); nothing changed.\n")
        }
        return 0
    }
}
