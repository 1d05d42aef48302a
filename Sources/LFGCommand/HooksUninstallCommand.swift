/// `lfg hooks uninstall`: remove LFG's hooks from Claude Code's settings
public struct HooksUninstallCommand: Command {
    public static let name = "hooks uninstall"
    public static let summary = "remove LFG's hooks from Claude Code's settings"
    public static let usage = "Usage: lfg hooks uninstall [--settings FILE]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg hooks uninstall' is not built yet")
    }
}
