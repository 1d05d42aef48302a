/// `lfg hooks install`: add LFG's hooks to Claude Code's settings
public struct HooksInstallCommand: Command {
    public static let name = "hooks install"
    public static let summary = "add LFG's hooks to Claude Code's settings"
    public static let usage = "Usage: lfg hooks install [--settings FILE]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg hooks install' is not built yet")
    }
}
