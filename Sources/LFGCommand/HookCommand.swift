/// `lfg hook`: report one Claude Code hook event (stdin) to the control plane
public struct HookCommand: Command {
    public static let name = "hook"
    public static let summary = "report one Claude Code hook event (stdin) to the control plane"
    public static let usage = "Usage: lfg hook "

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg hook' is not built yet")
    }
}
